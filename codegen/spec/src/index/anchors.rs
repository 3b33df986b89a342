//! YAML anchors (`&name`) and their aliases (`*name`) of one file, as places of
//! [`Symbol::Anchor`](super::Symbol::Anchor): read with the same YAML parser as the node tree
//! ([`crate::yaml::parse`]), which shares an alias's value with its anchor and keeps no name.

use saphyr_parser::{Event, Parser};

use super::{Occurrence, Role, Symbol};
use crate::diag::Span;

/// Every anchor and alias of `text` (file number `file`), up to the first syntax error.
pub fn occurrences(file: u32, text: &str) -> Vec<Occurrence> {
    // Cheap: a file without `&` has no anchor, and so no alias that resolves.
    if !text.contains('&') {
        return Vec::new();
    }
    let lines: Vec<&str> = text.lines().collect();
    let mut names: Vec<(usize, String)> = Vec::new();
    let mut out = Vec::new();
    for event in Parser::new_from_str(text) {
        let Ok((event, span)) = event else { break };
        let (line, col) = (span.start.line(), span.start.col());
        let (anchor, role, sigil) = match event {
            Event::Scalar(_, _, anchor, _)
            | Event::MappingStart(anchor, _)
            | Event::SequenceStart(anchor, _)
                if anchor != 0 =>
            {
                (anchor, Role::Definition, '&')
            }
            Event::Alias(anchor) => (anchor, Role::Reference, '*'),
            _ => continue,
        };
        let Some((at, name)) = find_name(&lines, line, col, sigil) else {
            continue;
        };
        let name = match role {
            Role::Definition => {
                names.retain(|(id, _)| *id != anchor);
                names.push((anchor, name.clone()));
                name
            }
            _ => match names.iter().find(|(id, _)| *id == anchor) {
                Some((_, n)) => n.clone(),
                None => name,
            },
        };
        out.push(Occurrence {
            span: Span {
                file,
                line: at.0,
                column: at.1,
            },
            len: u32::try_from(name.chars().count()).unwrap_or(u32::MAX),
            symbol: Symbol::Anchor { file, name },
            role,
        });
    }
    out
}

/// The name after the `sigil` (`&` or `*`) at or before the event's place (line from 1,
/// column from 0, in characters): its place (line and column from 1) and text.
fn find_name(lines: &[&str], line: usize, col: usize, sigil: char) -> Option<((u32, u32), String)> {
    // An anchored block mapping or list starts at its first key, a line below its anchor:
    // the anchor is the last sigil before the event.
    let mut l = line;
    let mut before = Some(col + 1);
    for _ in 0..3 {
        let text = lines.get(l.checked_sub(1)?)?;
        let chars: Vec<char> = text.chars().collect();
        let end = before.unwrap_or(chars.len()).min(chars.len());
        if let Some(at) = chars[..end].iter().rposition(|c| *c == sigil) {
            let name: String = chars[at + 1..]
                .iter()
                .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '[' | ']' | '{' | '}'))
                .collect();
            if name.is_empty() {
                return None;
            }
            let line = u32::try_from(l).ok()?;
            let column = u32::try_from(at + 2).ok()?;
            return Some(((line, column), name));
        }
        l -= 1;
        before = None;
    }
    None
}
