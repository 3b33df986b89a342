//! The text around a syntax error, for its message: the name of an anchor or alias, the tab
//! an error is about, the bracket left open.

use crate::diag::Span;

/// The name of the anchor or alias written at `at` (`&name` or `*name`), for messages.
pub(super) fn name_at(text: &str, at: Span) -> String {
    let line = text
        .lines()
        .nth((at.line as usize).saturating_sub(1))
        .unwrap_or("");
    line.chars()
        .skip(at.column as usize)
        .take_while(|c| !c.is_whitespace() && !matches!(c, ',' | '[' | ']' | '{' | '}'))
        .collect()
}

/// The place of the tab a syntax error (at `at`, saying `message`) is about: the character at
/// the error, or the first tab of its line when the parser says the problem is a tab.
pub(super) fn tab_near(text: &str, at: Span, message: &str) -> Option<Span> {
    let line = text.lines().nth((at.line as usize).checked_sub(1)?)?;
    let at_error = line.chars().nth((at.column as usize).checked_sub(1)?) == Some('\t');
    let column = if at_error {
        at.column
    } else if message.contains("tab") {
        u32::try_from(line.chars().position(|c| c == '\t')? + 1).ok()?
    } else {
        return None;
    };
    Some(Span { column, ..at })
}

/// For a syntax error at `at`: a `{` or `[` opened on an earlier line and not closed before
/// the error (the likely cause), named in a hint. The text is scanned for brackets outside
/// comments and quoted scalars (a quote opens a scalar only where a token starts).
pub(super) fn unclosed(text: &str, at: Span) -> Option<String> {
    let mut open: Vec<(char, u32, u32)> = Vec::new();
    for (i, line) in text.lines().enumerate().take(at.line as usize) {
        let line_no = u32::try_from(i + 1).unwrap_or(u32::MAX);
        let mut quote: Option<char> = None;
        let mut prev = ' ';
        for (j, c) in line.chars().enumerate() {
            let column = u32::try_from(j + 1).unwrap_or(u32::MAX);
            if line_no == at.line && column >= at.column {
                break;
            }
            match quote {
                Some(q) => {
                    if c == q {
                        quote = None;
                    }
                }
                None => match c {
                    '#' if prev == ' ' => break,
                    '\'' | '"' if matches!(prev, ' ' | '{' | '[' | ',' | ':') => quote = Some(c),
                    '{' | '[' => open.push((c, line_no, column)),
                    '}' | ']' => {
                        open.pop();
                    }
                    _ => {}
                },
            }
            prev = c;
        }
    }
    let (c, line, column) = open.pop()?;
    (line < at.line).then(|| {
        let what = if c == '{' { "mapping" } else { "list" };
        format!("the `{c}` of the {what} at line {line}, column {column} is never closed")
    })
}
