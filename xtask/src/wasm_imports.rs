//! "Nothing native leaked": the npm package's module may import only wasm-bindgen's own
//! JS glue. An `env` import (C code compiled in, a `extern "C"` left unresolved) or a WASI
//! import (`wasi_snapshot_preview1`, std's file system) would instantiate nowhere but in a
//! host that provides it, so the build fails on any of them.
//!
//! A small reader of the module's import section (the format is stable and tiny); no
//! dependency needed.

use anyhow::{bail, Context, Result};

/// One entry of the import section.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Import {
    pub module: String,
    pub name: String,
    /// 0 function, 1 table, 2 memory, 3 global, 4 tag.
    pub kind: u8,
}

/// The import section of a wasm binary.
pub fn imports(wasm: &[u8]) -> Result<Vec<Import>> {
    if wasm.len() < 8 || &wasm[..4] != b"\0asm" {
        bail!("not a WebAssembly module");
    }
    let mut r = Reader { b: wasm, at: 8 };
    let mut out = Vec::new();
    while r.at < wasm.len() {
        let id = r.byte()?;
        let len = r.leb()? as usize;
        let end = r.at.checked_add(len).filter(|&e| e <= wasm.len());
        let end = end.context("section runs past the end of the module")?;
        if id == 2 {
            let mut s = Reader {
                b: &wasm[..end],
                at: r.at,
            };
            for _ in 0..s.leb()? {
                let module = s.name()?;
                let name = s.name()?;
                let kind = s.byte()?;
                match kind {
                    0 => {
                        s.leb()?; // type index
                    }
                    1 => {
                        s.byte()?; // reference type
                        s.limits()?;
                    }
                    2 => s.limits()?,
                    3 => {
                        s.byte()?; // value type
                        s.byte()?; // mutability
                    }
                    4 => {
                        s.byte()?; // attribute
                        s.leb()?; // type index
                    }
                    k => bail!("unknown import kind {k} for {module}.{name}"),
                }
                out.push(Import { module, name, kind });
            }
        }
        r.at = end;
    }
    Ok(out)
}

/// The imports of `wasm` that wasm-bindgen's glue `glue_module` (e.g. `./tflock_bg.js`)
/// does not provide: anything from another module, or a name outside wasm-bindgen's
/// `__wbg_` / `__wbindgen_` families.
pub fn unexpected(wasm: &[u8], glue_module: &str) -> Result<Vec<Import>> {
    Ok(imports(wasm)?
        .into_iter()
        .filter(|i| {
            !(i.module == glue_module
                && (i.name.starts_with("__wbg_") || i.name.starts_with("__wbindgen_")))
        })
        .collect())
}

/// Fails when the module at `path` imports anything but `glue_module`'s wasm-bindgen
/// functions; returns how many imports it has.
pub fn check(path: &std::path::Path, glue_module: &str) -> Result<usize> {
    let wasm = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let all = imports(&wasm).with_context(|| format!("parsing {}", path.display()))?;
    let bad = unexpected(&wasm, glue_module)?;
    if !bad.is_empty() {
        let list: Vec<String> = bad
            .iter()
            .map(|i| format!("{}.{}", i.module, i.name))
            .collect();
        bail!(
            "{} imports what no JS host provides (native code leaked into the package?): {}",
            path.display(),
            list.join(", ")
        );
    }
    Ok(all.len())
}

struct Reader<'a> {
    b: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn byte(&mut self) -> Result<u8> {
        let v = *self.b.get(self.at).context("unexpected end of module")?;
        self.at += 1;
        Ok(v)
    }

    fn leb(&mut self) -> Result<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7f) << shift;
            if b & 0x80 == 0 {
                return Ok(v);
            }
        }
        bail!("LEB128 number too long")
    }

    fn name(&mut self) -> Result<String> {
        let len = self.leb()? as usize;
        let end = self.at.checked_add(len).filter(|&e| e <= self.b.len());
        let bytes = &self.b[self.at..end.context("name runs past its section")?];
        self.at += len;
        Ok(String::from_utf8(bytes.to_vec())?)
    }

    fn limits(&mut self) -> Result<()> {
        let flags = self.byte()?;
        self.leb()?;
        if flags & 1 != 0 {
            self.leb()?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn name(s: &str) -> Vec<u8> {
        let mut v = vec![s.len() as u8];
        v.extend_from_slice(s.as_bytes());
        v
    }

    /// A module with a type section and the given function / memory imports.
    fn module(funcs: &[(&str, &str)], memory: Option<(&str, &str)>) -> Vec<u8> {
        let mut m = b"\0asm\x01\0\0\0".to_vec();
        m.extend_from_slice(&[1, 4, 1, 0x60, 0, 0]); // type 0: () -> ()
        let mut body = vec![(funcs.len() + usize::from(memory.is_some())) as u8];
        for (module, field) in funcs {
            body.extend(name(module));
            body.extend(name(field));
            body.extend_from_slice(&[0, 0]);
        }
        if let Some((module, field)) = memory {
            body.extend(name(module));
            body.extend(name(field));
            body.extend_from_slice(&[2, 1, 1, 2]); // memory, min 1 max 2
        }
        m.push(2);
        m.push(body.len() as u8);
        m.extend(body);
        m
    }

    #[test]
    fn reads_the_import_section() {
        let m = module(
            &[("./tflock_bg.js", "__wbg_call_1"), ("env", "abort")],
            Some(("env", "memory")),
        );
        let got = imports(&m).unwrap();
        assert_eq!(got.len(), 3);
        assert_eq!(got[1].module, "env");
        assert_eq!(got[1].name, "abort");
        assert_eq!(got[2].kind, 2);
    }

    #[test]
    fn only_wasm_bindgen_glue_is_expected() {
        let ok = module(
            &[
                ("./tflock_bg.js", "__wbg_call_1"),
                ("./tflock_bg.js", "__wbindgen_init_externref_table"),
            ],
            None,
        );
        assert!(unexpected(&ok, "./tflock_bg.js").unwrap().is_empty());
        let bad = module(
            &[
                ("./tflock_bg.js", "__wbg_call_1"),
                ("wasi_snapshot_preview1", "fd_write"),
                ("./tflock_bg.js", "malloc"),
            ],
            Some(("env", "memory")),
        );
        let names: Vec<String> = unexpected(&bad, "./tflock_bg.js")
            .unwrap()
            .into_iter()
            .map(|i| format!("{}.{}", i.module, i.name))
            .collect();
        assert_eq!(
            names,
            [
                "wasi_snapshot_preview1.fd_write",
                "./tflock_bg.js.malloc",
                "env.memory"
            ]
        );
    }

    #[test]
    fn rejects_garbage() {
        assert!(imports(b"not wasm at all").is_err());
        let mut m = module(&[("a", "b")], None);
        m.truncate(m.len() - 2);
        assert!(imports(&m).is_err());
    }
}
