//! Request ids: 128 random bits, or an id a trusted proxy chose.

use rand::Rng;

/// The request id of one request, when [`serve`](super::serve) honoured the caller's
/// `x-request-id` (only with [`ServeConfig::trust_request_id`](super::ServeConfig)); the
/// pipeline reads it from the request's extensions and makes a new id otherwise.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestId(pub String);

/// A new request id: `req_` and 32 lowercase hex digits, 128 bits from the thread-local
/// cryptographically secure generator of `rand` (ChaCha, seeded and reseeded from the
/// operating system). Ids are unguessable and reveal nothing of the request volume; two are
/// equal with probability 2⁻¹²⁸, so they are unique for any practical count.
pub fn new_request_id() -> String {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut rng = rand::rng();
    let value = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
    let mut id = *b"req_00000000000000000000000000000000";
    for (i, byte) in value.to_be_bytes().into_iter().enumerate() {
        id[4 + 2 * i] = HEX[usize::from(byte >> 4)];
        id[5 + 2 * i] = HEX[usize::from(byte & 0xf)];
    }
    String::from_utf8(id.to_vec()).unwrap_or_default()
}

/// True for an incoming `x-request-id` the server may adopt: 1 to 64 characters of ASCII
/// letters, digits, `-`, `_`, `.` and `:` (what proxies and tracing systems use; nothing that
/// could break a log line or a header).
pub fn is_valid_request_id(id: &str) -> bool {
    (1..=64).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':'))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_random_128_bit_hex() {
        let ids: std::collections::HashSet<String> = (0..1000).map(|_| new_request_id()).collect();
        assert_eq!(ids.len(), 1000);
        for id in &ids {
            let hex = id.strip_prefix("req_").unwrap();
            assert_eq!(hex.len(), 32);
            assert!(
                hex.bytes()
                    .all(|b| b.is_ascii_hexdigit() && !b.is_ascii_uppercase())
            );
        }
        // Not a counter: consecutive ids share no long prefix.
        let (a, b) = (new_request_id(), new_request_id());
        assert_ne!(a[..16], b[..16]);
    }

    #[test]
    fn incoming_ids() {
        for good in ["a", "req_0123", "3f2a-11:22.x_y", &"x".repeat(64)] {
            assert!(is_valid_request_id(good), "{good}");
        }
        for bad in ["", "a b", "a\nb", "é", "a/b", "{}", &"x".repeat(65)] {
            assert!(!is_valid_request_id(bad), "{bad:?}");
        }
    }
}
