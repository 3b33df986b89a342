//! A lexer of Rust source as far as paths are concerned (identifiers, `::`, punctuation, the
//! text of strings; comments, numbers and characters left out), each token with its line; and
//! the reading of `use` trees and paths from its tokens.

/// A name a `use` declaration brings in: its path, the name it is bound to (`None` for a
/// glob), and the line of its last segment.
#[derive(Debug)]
pub(super) struct UseLeaf {
    pub(super) segments: Vec<String>,
    pub(super) binding: Option<String>,
    pub(super) line: usize,
}

/// Reads the use tree starting at `i` under `prefix` into `leaves`; returns the index after
/// it (after the `;` that ends the declaration, when the tree is the whole of it).
pub(super) fn use_tree(
    tokens: &[Token],
    mut i: usize,
    prefix: &mut Vec<String>,
    leaves: &mut Vec<UseLeaf>,
) -> usize {
    let depth = prefix.len();
    if matches!(peek(tokens, i), Some(Kind::PathSep)) {
        i += 1; // `use ::std::..`: another crate
        prefix.push(String::new());
    }
    loop {
        match peek(tokens, i) {
            Some(Kind::Ident(name)) => {
                let line = tokens[i].line;
                let name = name.clone();
                i += 1;
                if matches!(peek(tokens, i), Some(Kind::PathSep)) {
                    prefix.push(name);
                    i += 1;
                    continue;
                }
                let mut binding = if name == "self" {
                    prefix.last().cloned()
                } else {
                    Some(name.clone())
                };
                let mut segments = prefix.clone();
                if name != "self" {
                    segments.push(name);
                }
                if matches!(peek(tokens, i), Some(Kind::Ident(w)) if w == "as") {
                    if let Some(Kind::Ident(alias)) = peek(tokens, i + 1) {
                        binding = (alias != "_").then(|| alias.clone());
                    }
                    i += 2;
                }
                leaves.push(UseLeaf {
                    segments,
                    binding,
                    line,
                });
                break;
            }
            Some(Kind::Punct('*')) => {
                leaves.push(UseLeaf {
                    segments: prefix.clone(),
                    binding: None,
                    line: tokens[i].line,
                });
                i += 1;
                break;
            }
            Some(Kind::Punct('{')) => {
                i += 1;
                loop {
                    match peek(tokens, i) {
                        Some(Kind::Punct('}')) => {
                            i += 1;
                            break;
                        }
                        Some(Kind::Punct(',')) => i += 1,
                        None => break,
                        _ => {
                            let mut inner = prefix.clone();
                            i = use_tree(tokens, i, &mut inner, leaves);
                        }
                    }
                }
                break;
            }
            _ => break,
        }
    }
    prefix.truncate(depth);
    if depth == 0 && matches!(peek(tokens, i), Some(Kind::Punct(';'))) {
        i += 1;
    }
    i
}

/// Whether the `crate` or `super` at `i` begins a path (`crate::x`, not `pub(crate)`).
pub(super) fn is_path(tokens: &[Token], i: usize) -> bool {
    matches!(peek(tokens, i + 1), Some(Kind::PathSep))
        && matches!(peek(tokens, i + 2), Some(Kind::Ident(_)))
}

/// The path starting at `i` (`crate::a::b`, `super::super::c`), stopping before generic
/// arguments, and the index after it.
pub(super) fn path_at(tokens: &[Token], mut i: usize) -> (Vec<String>, usize) {
    let mut segments = Vec::new();
    while let Some(Kind::Ident(name)) = peek(tokens, i) {
        segments.push(name.clone());
        i += 1;
        if matches!(peek(tokens, i), Some(Kind::PathSep))
            && matches!(peek(tokens, i + 1), Some(Kind::Ident(_)))
        {
            i += 1;
        } else {
            break;
        }
    }
    (segments, i)
}

/// The index after the bracketed group starting at `i` (or `i` when none starts there).
pub(super) fn skip_group(tokens: &[Token], mut i: usize) -> usize {
    let mut depth = 0usize;
    while let Some(kind) = peek(tokens, i) {
        i += 1;
        match kind {
            Kind::Punct('{' | '[' | '(') => depth += 1,
            Kind::Punct('}' | ']' | ')') => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    break;
                }
            }
            _ if depth == 0 => return i - 1,
            _ => {}
        }
    }
    i
}

pub(super) fn peek(tokens: &[Token], i: usize) -> Option<&Kind> {
    tokens.get(i).map(|t| &t.kind)
}

/// A token of Rust source, as far as paths are concerned.
#[derive(Clone, Debug, PartialEq)]
pub(super) enum Kind {
    /// An identifier or keyword (a raw identifier without its `r#`).
    Ident(String),
    /// `::`.
    PathSep,
    /// The text of a string literal, escapes left as written.
    Str(String),
    /// Any other punctuation, one character at a time; literals other than strings are
    /// left out.
    Punct(char),
}

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) kind: Kind,
    pub(super) line: usize,
}

/// The tokens of `text`, comments left out, each with its line (from 1).
pub(super) fn lex(text: &str) -> Result<Vec<Token>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut tokens = Vec::new();
    let mut line = 1;
    let mut i = 0;
    let at = |i: usize| chars.get(i).copied().unwrap_or('\0');
    let ident_start = |c: char| c.is_alphabetic() || c == '_';
    let ident_char = |c: char| c.is_alphanumeric() || c == '_';
    while i < chars.len() {
        let c = chars[i];
        let start_line = line;
        match c {
            '\n' => {
                line += 1;
                i += 1;
            }
            c if c.is_whitespace() => i += 1,
            '/' if at(i + 1) == '/' => {
                while i < chars.len() && chars[i] != '\n' {
                    i += 1;
                }
            }
            '/' if at(i + 1) == '*' => {
                let mut depth = 0;
                loop {
                    match (at(i), at(i + 1)) {
                        ('\0', _) if i >= chars.len() => {
                            return Err(format!("line {start_line}: a comment does not end"));
                        }
                        ('/', '*') => {
                            depth += 1;
                            i += 2;
                        }
                        ('*', '/') => {
                            depth -= 1;
                            i += 2;
                            if depth == 0 {
                                break;
                            }
                        }
                        ('\n', _) => {
                            line += 1;
                            i += 1;
                        }
                        _ => i += 1,
                    }
                }
            }
            // Raw strings: r"..", r#".."#, br"..", cr"..".
            'r' | 'b' | 'c' if raw_string_at(&chars, i).is_some() => {
                let (hashes, open) = raw_string_at(&chars, i).unwrap_or_default();
                let body = open + 1;
                let mut end = body;
                let closing: String = std::iter::once('"')
                    .chain(std::iter::repeat_n('#', hashes))
                    .collect();
                let closing: Vec<char> = closing.chars().collect();
                while end < chars.len() && !chars[end..].starts_with(&closing) {
                    if chars[end] == '\n' {
                        line += 1;
                    }
                    end += 1;
                }
                if end >= chars.len() {
                    return Err(format!("line {start_line}: a raw string does not end"));
                }
                let content: String = chars[body..end].iter().collect();
                tokens.push(Token {
                    kind: Kind::Str(content),
                    line: start_line,
                });
                i = end + closing.len();
            }
            // Strings: "..", b"..", c"..".
            '"' | 'b' | 'c' if c == '"' || at(i + 1) == '"' => {
                let body = if c == '"' { i + 1 } else { i + 2 };
                let mut end = body;
                while end < chars.len() && chars[end] != '"' {
                    match chars[end] {
                        '\\' => {
                            if at(end + 1) == '\n' {
                                line += 1;
                            }
                            end += 2;
                        }
                        '\n' => {
                            line += 1;
                            end += 1;
                        }
                        _ => end += 1,
                    }
                }
                if end >= chars.len() {
                    return Err(format!("line {start_line}: a string does not end"));
                }
                let content: String = chars[body..end].iter().collect();
                tokens.push(Token {
                    kind: Kind::Str(content),
                    line: start_line,
                });
                i = end + 1;
            }
            // Characters ('x', '\n', b'x') and lifetimes ('a, 'static).
            '\'' | 'b' if c == '\'' || at(i + 1) == '\'' => {
                let quote = if c == '\'' { i } else { i + 1 };
                if at(quote + 1) == '\\' {
                    let mut end = quote + 3;
                    while end < chars.len() && chars[end] != '\'' {
                        end += 1;
                    }
                    i = end + 1;
                } else if at(quote + 2) == '\'' {
                    i = quote + 3;
                } else {
                    // A lifetime: the quote alone; its name is read as an identifier next.
                    tokens.push(Token {
                        kind: Kind::Punct('\''),
                        line,
                    });
                    i = quote + 1;
                }
            }
            c if ident_start(c) => {
                let mut end = i;
                while end < chars.len() && ident_char(chars[end]) {
                    end += 1;
                }
                let mut word: String = chars[i..end].iter().collect();
                // A raw identifier: `r#type`.
                if word == "r" && at(end) == '#' && ident_start(at(end + 1)) {
                    let start = end + 1;
                    end = start;
                    while end < chars.len() && ident_char(chars[end]) {
                        end += 1;
                    }
                    word = chars[start..end].iter().collect();
                }
                tokens.push(Token {
                    kind: Kind::Ident(word),
                    line,
                });
                i = end;
            }
            c if c.is_ascii_digit() => {
                while i < chars.len()
                    && (ident_char(chars[i]) || (chars[i] == '.' && at(i + 1).is_ascii_digit()))
                {
                    i += 1;
                }
            }
            ':' if at(i + 1) == ':' => {
                tokens.push(Token {
                    kind: Kind::PathSep,
                    line,
                });
                i += 2;
            }
            _ => {
                tokens.push(Token {
                    kind: Kind::Punct(c),
                    line,
                });
                i += 1;
            }
        }
    }
    Ok(tokens)
}

/// At a raw string's prefix (`r`, `br`, `cr`) at `i`: its number of `#` and the index of its
/// opening quote.
fn raw_string_at(chars: &[char], i: usize) -> Option<(usize, usize)> {
    let r = match chars.get(i)? {
        'r' => i,
        'b' | 'c' if chars.get(i + 1) == Some(&'r') => i + 1,
        _ => return None,
    };
    if i > 0
        && chars
            .get(i - 1)
            .is_some_and(|c| c.is_alphanumeric() || *c == '_')
    {
        return None;
    }
    let mut at = r + 1;
    while chars.get(at) == Some(&'#') {
        at += 1;
    }
    (chars.get(at) == Some(&'"')).then_some((at - r - 1, at))
}
