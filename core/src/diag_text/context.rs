//! `hcled.ContextString`: the "in resource "aws_instance" "x"" part of a diagnostic's
//! location line, which Terraform computes by parsing the file again (with the parser's
//! error recovery) and looking up the byte before the diagnostic's start.

use super::json_nav::{self, Value};

/// What names the place at byte `offset` of `src`, a file called `filename`, or `""`:
/// for native syntax the top-level block holding it (its type and labels quoted as Go's
/// `%q` quotes them), for JSON (a name ending `.json`) the path of object properties and
/// array indexes leading to the innermost object or array holding it.
pub fn context_string(filename: &str, src: &[u8], offset: Option<usize>) -> String {
    let Some(offset) = offset else {
        return String::new();
    };
    if filename.ends_with(".json") {
        return json_context(src, offset);
    }
    let blocks = crate::hcl_syntax::top_level_blocks(src);
    let Some(block) = blocks.iter().find(|b| b.span.contains(&offset)) else {
        return String::new();
    };
    let mut out = block.kind.clone();
    for label in &block.labels {
        out.push(' ');
        out.push_str(&crate::gotext::quote_bytes(label.as_bytes()));
    }
    out
}

/// HCL's JSON navigation over the objects and arrays its parser recovered.
fn json_context(src: &[u8], offset: usize) -> String {
    let root = json_nav::parse(src);
    let mut steps = Vec::new();
    let mut node = &root;
    let holds = |v: &Value| match v {
        Value::Object(_, span) | Value::Array(_, span) => span.contains(&offset),
        Value::Other => false,
    };
    'walk: loop {
        match node {
            Value::Object(props, _) => {
                for (key, value) in props {
                    if holds(value) {
                        steps.push(format!(".{key}"));
                        node = value;
                        continue 'walk;
                    }
                }
            }
            Value::Array(items, _) => {
                for (i, item) in items.iter().enumerate() {
                    if holds(item) {
                        steps.push(format!("[{i}]"));
                        node = item;
                        continue 'walk;
                    }
                }
            }
            Value::Other => {}
        }
        break;
    }
    let joined = steps.concat();
    match joined.strip_prefix('.') {
        Some(rest) => rest.to_string(),
        None => joined,
    }
}

#[cfg(test)]
mod tests {
    use super::context_string;

    #[test]
    fn native_syntax_names_the_top_level_block() {
        let src = b"locals {\n  a = 1\n}\n\nresource \"aws_instance\" \"x\" {\n  tags = {\n    Name = 1\n  }\n}\n";
        let at = |text: &str| Some(std::str::from_utf8(src).unwrap().find(text).unwrap());
        assert_eq!(context_string("main.tf", src, at("a = 1")), "locals");
        assert_eq!(
            context_string("main.tf", src, at("Name")),
            "resource \"aws_instance\" \"x\""
        );
        // The block's range ends with its closing brace: the newline after it is outside.
        assert_eq!(context_string("main.tf", src, at("\n\nresource")), "");
        assert_eq!(context_string("main.tf", src, None), "");
    }

    #[test]
    fn labels_are_quoted_as_go_quotes_them() {
        let src = "module \"caf\u{e9}\\t\" {\n}\n".as_bytes();
        assert_eq!(
            context_string("main.tf", src, Some(18)),
            "module \"caf\u{e9}\\t\""
        );
    }

    #[test]
    fn a_block_whose_header_broke_is_only_its_type() {
        let src = b"variable \"x\"\n{\n  default = 1\n}\n";
        assert_eq!(context_string("main.tf", src, Some(3)), "variable \"x\"");
        assert_eq!(context_string("main.tf", src, Some(10)), "");
    }

    #[test]
    fn json_names_the_path_to_the_innermost_object() {
        let src =
            br#"{"resource": {"aws_instance": {"x": {"tags": {"a": 1}}}}, "list": [1, {"b": 2}]}"#;
        let text = std::str::from_utf8(src).unwrap();
        let at = |t: &str| Some(text.find(t).unwrap());
        assert_eq!(
            context_string("main.tf.json", src, at("\"a\"")),
            "resource.aws_instance.x.tags"
        );
        assert_eq!(context_string("main.tf.json", src, at("\"b\"")), "list[1]");
        assert_eq!(context_string("main.tf.json", src, at("1, {")), "list");
        assert_eq!(context_string("main.tf.json", src, at("\"list\"")), "");
        // HCL's parser keeps what it recovered around a syntax error.
        let broken = br#"{"a": {"b": {"c": }}, "d": {"e" 1}}"#;
        assert_eq!(context_string("main.tf.json", broken, Some(18)), "a.b");
        assert_eq!(context_string("main.tf.json", broken, Some(29)), "");
    }
}
