//! Text made into names and into messages: a part of a name, a list of values.

/// `text` as a part of a name (a probe's, a drafted endpoint's id): ASCII letters and digits
/// lowercased, anything else `_` (`MLC 128Gb`: `mlc_128gb`).
pub fn name_part(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_lowercase()
            } else {
                '_'
            }
        })
        .collect()
}

/// `` `a`, `b` or `c` ``: a list of values for a message.
pub fn one_of(values: &[&str]) -> String {
    let quoted: Vec<String> = values.iter().map(|v| format!("`{v}`")).collect();
    match quoted.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} or {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn name_parts_are_lowercase_letters_digits_and_underscores() {
        assert_eq!(name_part("MLC 128Gb"), "mlc_128gb");
        assert_eq!(name_part("equity-offering"), "equity_offering");
        assert_eq!(name_part("é"), "_");
    }

    #[test]
    fn lists() {
        assert_eq!(one_of(&["a", "b", "c"]), "`a`, `b` or `c`");
        assert_eq!(one_of(&["a"]), "`a`");
        assert_eq!(one_of(&[]), "");
    }
}
