//! The TypeScript shapes of the objects crossing the boundary, appended to the generated
//! `.d.ts` (the functions' signatures name these types).

use wasm_bindgen::prelude::wasm_bindgen;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = include_str!("types.d.ts");
