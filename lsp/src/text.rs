//! Places in text: the spec's (line and column from 1, counted in characters) and the
//! protocol's (line from 0, column in UTF-16 code units), and file URIs.

use std::path::{Path, PathBuf};
use std::str::FromStr;

use lsp_types::{Position, Range, Uri};

/// The lines of a text, found once.
pub struct Lines<'a> {
    text: &'a str,
    starts: Vec<usize>,
}

impl<'a> Lines<'a> {
    /// The lines of `text`.
    pub fn new(text: &'a str) -> Self {
        let mut starts = vec![0];
        starts.extend(text.match_indices('\n').map(|(i, _)| i + 1));
        Lines { text, starts }
    }

    /// Line `n` (from 0) without its line break; empty past the end.
    pub fn line(&self, n: usize) -> &'a str {
        let Some(&start) = self.starts.get(n) else {
            return "";
        };
        let end = self.starts.get(n + 1).map_or(self.text.len(), |e| e - 1);
        self.text[start..end.max(start)].trim_end_matches('\r')
    }

    /// How many lines there are.
    pub fn count(&self) -> usize {
        self.starts.len()
    }

    /// The protocol's position of a spec place (line and column from 1, in characters).
    pub fn position(&self, line: u32, column: u32) -> Position {
        let l = (line as usize).saturating_sub(1);
        let chars = (column as usize).saturating_sub(1);
        let units: usize = self.line(l).chars().take(chars).map(char::len_utf16).sum();
        // Past the text's characters (a place at the end of a line): the columns left count one each.
        let counted = self.line(l).chars().take(chars).count();
        Position::new(l as u32, (units + chars - counted) as u32)
    }

    /// The protocol's range of `len` characters from a spec place.
    pub fn range(&self, line: u32, column: u32, len: u32) -> Range {
        Range::new(
            self.position(line, column),
            self.position(line, column + len),
        )
    }

    /// The spec's place (line and column from 1, in characters) of a protocol position.
    pub fn place(&self, p: Position) -> (u32, u32) {
        let line = self.line(p.line as usize);
        let mut units = 0u32;
        let mut chars = 0u32;
        for c in line.chars() {
            if units >= p.character {
                break;
            }
            units += c.len_utf16() as u32;
            chars += 1;
        }
        (p.line + 1, chars + 1)
    }

    /// The byte offset of a protocol position (clamped to the text).
    pub fn offset(&self, p: Position) -> usize {
        let Some(&start) = self.starts.get(p.line as usize) else {
            return self.text.len();
        };
        let line = self.line(p.line as usize);
        let mut units = 0u32;
        for (i, c) in line.char_indices() {
            if units >= p.character {
                return start + i;
            }
            units += c.len_utf16() as u32;
        }
        start + line.len()
    }
}

/// The `file:` URI of an absolute path.
pub fn uri_of(path: &Path) -> Option<Uri> {
    let text = path.to_string_lossy().replace('\\', "/");
    let mut out = String::from("file://");
    if !text.starts_with('/') {
        out.push('/');
    }
    for b in text.bytes() {
        if b.is_ascii_alphanumeric() || b"/-._~:".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    Uri::from_str(&out).ok()
}

/// The path of a `file:` URI.
pub fn path_of(uri: &Uri) -> Option<PathBuf> {
    let rest = uri.as_str().strip_prefix("file://")?;
    // `file://host/path` is not a local file; `file:///path` has an empty host.
    let rest = rest.strip_prefix("localhost").unwrap_or(rest);
    if !rest.starts_with('/') {
        return None;
    }
    let bytes = rest.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' && i + 2 < bytes.len() {
            let hex = std::str::from_utf8(&bytes[i + 1..i + 3]).ok();
            if let Some(v) = hex.and_then(|h| u8::from_str_radix(h, 16).ok()) {
                out.push(v);
                i += 3;
                continue;
            }
        }
        out.push(bytes[i]);
        i += 1;
    }
    let text = String::from_utf8(out).ok()?;
    // `file:///C:/x` on Windows.
    let text = match text.as_bytes() {
        [b'/', _, b':', ..] => text[1..].to_owned(),
        _ => text,
    };
    Some(PathBuf::from(text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_utf16_units_and_places_count_characters() {
        let lines = Lines::new("a: 1\nb: \"é𝄞x\"\r\n");
        assert_eq!(lines.line(1), "b: \"é𝄞x\"");
        // `x` is the 7th character of line 2, after one 2-unit character.
        assert_eq!(lines.position(2, 7), Position::new(1, 7));
        assert_eq!(lines.place(Position::new(1, 7)), (2, 7));
        assert_eq!(lines.offset(Position::new(1, 7)), 5 + 4 + 2 + 4);
        assert_eq!(lines.position(9, 3), Position::new(8, 2));
    }

    #[test]
    fn uris_and_paths_round_trip() {
        let path = Path::new("/work/a b/spec/records.yaml");
        let uri = uri_of(path).expect("a URI");
        assert_eq!(uri.as_str(), "file:///work/a%20b/spec/records.yaml");
        assert_eq!(path_of(&uri).as_deref(), Some(path));
    }
}
