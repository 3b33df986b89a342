//! Which redirects the client follows: those within the origin of the request (and for a
//! request other than a `GET`, only those that keep the method), their `Location` resolved.

use http::header::LOCATION;
use http::{StatusCode, Uri};

/// Where a redirect answer to a request of `from` leads, if the client follows it: a 301,
/// 302, 303, 307 or 308 (only 307 and 308, which keep the method, for a request other than a
/// `GET`) whose `Location` stays within the origin of `from` (scheme, host, port).
pub(super) fn redirect_target<B>(
    from: &Uri,
    resp: &http::Response<B>,
    keep_method: bool,
) -> Option<Uri> {
    let keeps_method = matches!(
        resp.status(),
        StatusCode::TEMPORARY_REDIRECT | StatusCode::PERMANENT_REDIRECT
    );
    let redirect = keeps_method
        || matches!(
            resp.status(),
            StatusCode::MOVED_PERMANENTLY | StatusCode::FOUND | StatusCode::SEE_OTHER
        );
    if !redirect || (keep_method && !keeps_method) {
        return None;
    }
    let location = resp.headers().get(LOCATION)?.to_str().ok()?;
    let next = resolve_location(from, location)?;
    same_origin(from, &next).then_some(next)
}

/// A `Location` resolved against the URL it answers: absolute, scheme-relative (`//host/..`),
/// absolute path or relative path; a fragment is dropped.
pub(super) fn resolve_location(from: &Uri, location: &str) -> Option<Uri> {
    let location = location.split('#').next()?.trim();
    let scheme = from.scheme_str()?;
    let authority = from.authority()?;
    let text = if location.contains("://") {
        location.to_string()
    } else if let Some(rest) = location.strip_prefix("//") {
        format!("{scheme}://{rest}")
    } else if location.starts_with('/') {
        format!("{scheme}://{authority}{location}")
    } else {
        let path = from.path();
        let directory = &path[..path.rfind('/').map_or(0, |i| i + 1)];
        format!("{scheme}://{authority}{directory}{location}")
    };
    text.parse().ok()
}

/// Whether two URLs have one origin: scheme, host (in any case) and port, a missing port
/// being the scheme's.
pub(super) fn same_origin(a: &Uri, b: &Uri) -> bool {
    let port = |u: &Uri| {
        u.port_u16().or(match u.scheme_str() {
            Some("http") => Some(80),
            Some("https") => Some(443),
            _ => None,
        })
    };
    a.scheme() == b.scheme()
        && a.host()
            .zip(b.host())
            .is_some_and(|(x, y)| x.eq_ignore_ascii_case(y))
        && port(a) == port(b)
}
