//! Columns as hclsyntax counts them: one per grapheme cluster (go-textseg, which reads a
//! malformed UTF-8 sequence the lenient way the scanner does), so a combining mark does not
//! move the column and `\r\n` is one newline.

use super::scan::ragel_char_len;
use crate::diag::Pos;

/// What a scalar contributes to cluster boundaries (the Grapheme_Cluster_Break classes that
/// configuration text realistically contains).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Control,
    Extend,
    Prepend,
    Regional,
    HangulL,
    HangulV,
    HangulT,
    HangulLv,
    HangulLvt,
    /// A byte that is not UTF-8 at all: a cluster of its own.
    Broken,
    Other,
}

/// Moves `pos` over `bytes` the way `tokenAccum.emitToken` does.
pub(crate) fn advance(pos: &mut Pos, bytes: &[u8]) {
    let mut i = 0;
    let mut prev: Option<Class> = None;
    let mut regional_run = 0;
    while i < bytes.len() {
        if bytes[i] == b'\n' || (bytes[i] == b'\r' && bytes.get(i + 1) == Some(&b'\n')) {
            pos.line += 1;
            pos.column = 1;
            i += if bytes[i] == b'\n' { 1 } else { 2 };
            prev = Some(Class::Control);
            continue;
        }
        if (0x20..0x7F).contains(&bytes[i]) && prev != Some(Class::Prepend) {
            // Printable ASCII: always a cluster of its own.
            pos.column += 1;
            prev = Some(Class::Other);
            regional_run = 0;
            i += 1;
            continue;
        }
        let (class, len) = match ragel_char_len(bytes, i) {
            Some(len) => (class_of(decode(&bytes[i..i + len])), len),
            None => (Class::Broken, 1),
        };
        let joins = match (prev, class) {
            (None | Some(Class::Control | Class::Broken), _) => false,
            (_, Class::Control | Class::Broken) => false,
            (Some(Class::Prepend), _) => true,
            (_, Class::Extend) => true,
            (Some(Class::Regional), Class::Regional) => regional_run % 2 == 1,
            (
                Some(Class::HangulL),
                Class::HangulL | Class::HangulV | Class::HangulLv | Class::HangulLvt,
            ) => true,
            (Some(Class::HangulLv | Class::HangulV), Class::HangulV | Class::HangulT) => true,
            (Some(Class::HangulLvt | Class::HangulT), Class::HangulT) => true,
            _ => false,
        };
        regional_run = if class == Class::Regional {
            regional_run + 1
        } else {
            0
        };
        if !joins {
            pos.column += 1;
        }
        prev = Some(class);
        i += len;
    }
    pos.byte += bytes.len();
}

fn decode(seq: &[u8]) -> Option<char> {
    std::str::from_utf8(seq).ok().and_then(|s| s.chars().next())
}

fn class_of(c: Option<char>) -> Class {
    let Some(c) = c else {
        return Class::Other;
    };
    let u = c as u32;
    match u {
        0x00..=0x1F
        | 0x7F..=0x9F
        | 0xAD
        | 0x061C
        | 0x180E
        | 0x200B
        | 0x200E
        | 0x200F
        | 0x2028..=0x202E
        | 0x2060..=0x206F
        | 0xFEFF
        | 0xFFF0..=0xFFFB => Class::Control,
        0x0600..=0x0605 | 0x06DD | 0x070F | 0x08E2 | 0x110BD | 0x110CD => Class::Prepend,
        0x1F1E6..=0x1F1FF => Class::Regional,
        0x1100..=0x115F | 0xA960..=0xA97C => Class::HangulL,
        0x1160..=0x11A7 | 0xD7B0..=0xD7C6 => Class::HangulV,
        0x11A8..=0x11FF | 0xD7CB..=0xD7FB => Class::HangulT,
        0xAC00..=0xD7A3 if (u - 0xAC00) % 28 == 0 => Class::HangulLv,
        0xAC00..=0xD7A3 => Class::HangulLvt,
        _ if is_extend(u) => Class::Extend,
        _ => Class::Other,
    }
}

/// Grapheme_Cluster_Break Extend, ZWJ and SpacingMark for the scripts a typo or paste is
/// likely to bring in; clusters of other scripts count per scalar value.
fn is_extend(u: u32) -> bool {
    matches!(u,
        0x0300..=0x036F | 0x0483..=0x0489 | 0x0591..=0x05BD | 0x05BF | 0x05C1..=0x05C2
        | 0x05C4..=0x05C5 | 0x05C7 | 0x0610..=0x061A | 0x064B..=0x065F | 0x0670
        | 0x06D6..=0x06DC | 0x06DF..=0x06E4 | 0x0900..=0x0903 | 0x093A..=0x094F
        | 0x0951..=0x0957 | 0x0962..=0x0963 | 0x0981..=0x0983 | 0x09BC..=0x09D7
        | 0x1AB0..=0x1AFF | 0x1DC0..=0x1DFF | 0x200C..=0x200D | 0x20D0..=0x20F0
        | 0x302A..=0x302F | 0x3099..=0x309A | 0xFE00..=0xFE0F | 0xFE20..=0xFE2F
        | 0xFF9E..=0xFF9F | 0x1F3FB..=0x1F3FF | 0xE0020..=0xE007F | 0xE0100..=0xE01EF)
}
