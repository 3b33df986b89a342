//! A path template as written: its segments, and its shape with placeholder names erased.

use crate::naming;

/// The segments of a path (`Ok` a literal, `Err` a placeholder's name), or why the path is
/// malformed: it starts with `/v1/`, every literal segment is made of unreserved characters
/// (letters, digits, `-`, `.`, `_`, `~`), and every placeholder `{name}` fills a whole segment
/// and names a parameter once.
pub(super) fn parse_path(path: &str) -> Result<Vec<RawSegment<'_>>, String> {
    if !path.starts_with("/v1/") {
        return Err("must start with `/v1/`".into());
    }
    if path.ends_with('/') || path.contains("//") {
        return Err("must not end with `/` or hold an empty segment".into());
    }
    let mut segments = Vec::new();
    for seg in path.split('/').skip(1) {
        if seg.starts_with('{') || seg.ends_with('}') {
            let name = seg
                .strip_prefix('{')
                .and_then(|s| s.strip_suffix('}'))
                .filter(|n| naming::is_identifier(n))
                .ok_or_else(|| format!("has a malformed placeholder segment `{seg}`"))?;
            if segments.contains(&Err(name)) {
                return Err(format!("names placeholder `{{{name}}}` twice"));
            }
            segments.push(Err(name));
        } else if let Some(c) = seg
            .chars()
            .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '-' | '.' | '_' | '~')))
        {
            return Err(format!(
                "has the character `{c}` in segment `{seg}`; literal segments hold letters, digits, `-`, `.`, `_` and `~` only"
            ));
        } else {
            segments.push(Ok(seg));
        }
    }
    Ok(segments)
}

/// A segment of a path as written: `Ok` a literal, `Err` the name of a placeholder.
type RawSegment<'p> = Result<&'p str, &'p str>;

/// A path with its placeholder names erased, so `/a/{x}` and `/a/{y}` count as one route.
pub(super) fn normalize_route(path: &str) -> String {
    path.split('/')
        .map(|s| if s.starts_with('{') { "{}" } else { s })
        .collect::<Vec<_>>()
        .join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths() {
        let t = parse_path("/v1/persons/{person_id}/commentary").unwrap();
        assert_eq!(
            t,
            vec![Ok("v1"), Ok("persons"), Err("person_id"), Ok("commentary")]
        );
        assert!(parse_path("/v1/a/{x").is_err());
        assert!(parse_path("/v1/a/{x}/{x}").is_err());
        assert!(parse_path("v1/a").is_err());
        assert!(parse_path("/v1/a/:id").is_err());
        assert!(parse_path("/v1/a/*rest").is_err());
        assert!(parse_path("/v1/a b").is_err());
        assert!(parse_path("/v1/a?b").is_err());
        assert!(parse_path("/v1/semi-conductor/nand.v2_x~").is_ok());
        assert_eq!(normalize_route("/v1/a/{x}/b"), "/v1/a/{}/b");
    }
}
