//! Credentials redacted: what replaces them ([`REDACTED`]), and their text replaced wherever
//! it occurs. The sample server's journal and log line and the checking proxy's findings and
//! HAR file redact alike.

/// What replaces a credential in the journal (and in the checking proxy's records).
pub const REDACTED: &str = "<redacted>";

/// Keys and header values this long or longer are also replaced where else they occur (the
/// query, the path, other headers, the body); shorter ones would replace ordinary text.
pub(crate) const REDACT_ELSEWHERE_FROM: usize = 8;

/// `bytes` with every occurrence of each of `secrets` replaced by [`REDACTED`].
pub(crate) fn redact(bytes: &[u8], secrets: &[&[u8]]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for secret in secrets.iter().filter(|s| !s.is_empty()) {
        if memchr::memmem::find(&out, secret).is_none() {
            continue;
        }
        let mut replaced = Vec::with_capacity(out.len());
        let mut from = 0;
        for at in memchr::memmem::find_iter(&out, secret) {
            if at < from {
                continue;
            }
            replaced.extend_from_slice(&out[from..at]);
            replaced.extend_from_slice(REDACTED.as_bytes());
            from = at + secret.len();
        }
        replaced.extend_from_slice(&out[from..]);
        out = replaced;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redaction_replaces_every_occurrence() {
        assert_eq!(redact(b"xx-ab-ab-", &[b"ab"]), b"xx-<redacted>-<redacted>-");
        assert_eq!(redact(b"aaaa", &[b"aa"]), b"<redacted><redacted>");
        assert_eq!(redact(b"plain", &[b"", b"zz"]), b"plain");
    }
}
