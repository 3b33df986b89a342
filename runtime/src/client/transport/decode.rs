//! A complete answer turned into records or the error it means, noticing drift on the way
//! (and tracing what is noticed first); a body that does not decode named by record, field
//! and position.

use super::exchange::Head;
use super::partial::{Undecodable, read_page};
use crate::ErrorBody;
use crate::client::error::{ApiError, Error, StatusError, UndecodableError};
use crate::client::response::Response;
use crate::drift::{self, Drift, Finding};
use crate::shapes::Shapes;

/// The parts of a failure envelope, each optional so that anything known is kept.
#[derive(serde::Deserialize)]
struct FailureEnvelope<E> {
    #[serde(default)]
    success: Option<bool>,
    #[serde(default)]
    request_id: Option<String>,
    #[serde(default = "none")]
    error: Option<E>,
}

fn none<E>() -> Option<E> {
    None
}

/// The envelope of a successful answer (the generator checks that the spec's envelope has
/// these fields).
#[derive(serde::Deserialize)]
struct SuccessEnvelope<T, E> {
    success: bool,
    request_id: String,
    data: Vec<T>,
    #[serde(default = "none")]
    error: Option<E>,
    #[serde(default)]
    metadata: Option<crate::JsonValue>,
    #[serde(default)]
    pagination: Option<crate::JsonValue>,
}

/// Decodes a complete response as the client does: the records of a 2xx envelope, or the
/// error it means; with `noticing`, as a client noticing drift does (against `shapes`, for
/// `endpoint`, into `drift`). For benchmarks and tests; not part of the API.
#[doc(hidden)]
pub fn decode_body<T: serde::de::DeserializeOwned, E: ErrorBody>(
    status: u16,
    body: &[u8],
    noticing: Option<(&'static Shapes, &str, &Drift)>,
) -> Result<Response<T>, Error<E>> {
    decode_body_with(status, body, noticing, false)
}

/// [`decode_body`], returning the records of a page that decode when some do not (`skip`,
/// as `ClientBuilder::skip_undecodable_records` does). For tests; not part of the API.
#[doc(hidden)]
pub fn decode_body_with<T: serde::de::DeserializeOwned, E: ErrorBody>(
    status: u16,
    body: &[u8],
    noticing: Option<(&'static Shapes, &str, &Drift)>,
    skip: bool,
) -> Result<Response<T>, Error<E>> {
    let head = Head {
        status,
        retry_after: None,
        location: None,
        request_id: None,
    };
    let notice = noticing.map(|(shapes, endpoint, drift)| Notice {
        shapes,
        endpoint,
        drift,
    });
    let records = if skip {
        Undecodable::Skip
    } else {
        Undecodable::Fail
    };
    decode(&head, body, notice, records)
}

/// Where the drift of one answer goes: the shapes it is read against, its endpoint, the
/// client's record.
#[derive(Clone, Copy)]
pub(super) struct Notice<'a> {
    pub(super) shapes: &'static Shapes,
    pub(super) endpoint: &'a str,
    pub(super) drift: &'a Drift,
}

impl Notice<'_> {
    /// Keeps what an answer held, tracing each finding seen for the first time.
    fn absorb(self, noticed: &drift::Noticed) {
        if noticed.is_empty() {
            return;
        }
        for finding in self.drift.absorb(self.endpoint, noticed) {
            trace_finding(&finding);
        }
    }

    /// Walks an answer that did not decode (or an error answer) for everything it holds
    /// that the spec does not describe.
    fn walk(self, status: u16, body: &[u8]) {
        self.absorb(&drift::check_answer(
            self.shapes,
            self.endpoint,
            status,
            body,
        ));
    }
}

/// The WARN event of a finding, once per client: target `mrds::drift`, the finding's
/// fields, and its one-line description.
fn trace_finding(finding: &Finding) {
    let observed = &finding.observed;
    tracing::warn!(
        target: "mrds::drift",
        kind = observed.kind(),
        endpoint = finding.endpoint.as_str(),
        record = observed.record(),
        field = observed.field(),
        value_set = observed.value_set(),
        example = finding.example(),
        count = finding.count,
        "the service's answer differs from the spec: {observed}"
    );
}

/// The envelope of a 2xx answer, decoded, noticing drift when `notice` says so (what was
/// noticed is kept only for an envelope that decodes and says `success`; any other is walked
/// by the caller). Noticing never changes the result: an answer it fails to decode is decoded
/// plainly (a value read as an example can fail where plain decoding skips it).
fn decode_envelope<T: serde::de::DeserializeOwned, E: ErrorBody>(
    body: &[u8],
    notice: Option<Notice<'_>>,
) -> Result<SuccessEnvelope<T, E>, serde_json::Error> {
    let Some(notice) = notice else {
        return serde_json::from_slice(body);
    };
    let mut de = serde_json::Deserializer::from_slice(body);
    let (result, noticed) =
        drift::decode_noticing::<SuccessEnvelope<T, E>, _>(notice.shapes, notice.endpoint, &mut de);
    let result = result
        .and_then(|envelope| de.end().map(|()| envelope))
        .or_else(|_| serde_json::from_slice(body));
    if let Ok(envelope) = &result
        && envelope.success
    {
        notice.absorb(&noticed);
        if noticed.whole_numbers() > 0 {
            // Read as integers and told, not seen: the walk finds them, as spelt.
            let mut walked = drift::check_answer(notice.shapes, notice.endpoint, 200, body);
            walked.retain(|o| matches!(o, drift::Observed::WholeNumber { .. }));
            notice.absorb(&walked);
        }
    }
    result
}

/// Turns a complete response into records or the error it means; never panics.
pub(super) fn decode<T: serde::de::DeserializeOwned, E: ErrorBody>(
    head: &Head,
    body: &[u8],
    notice: Option<Notice<'_>>,
    records: Undecodable,
) -> Result<Response<T>, Error<E>> {
    let status = head.status;
    let undecodable = |reason: &str, source: Option<serde_json::Error>| {
        let mut e = UndecodableError::new(status, body, reason, source.map(|e| Box::new(e) as _));
        e.request_id = head.request_id.as_deref().map(Into::into);
        Error::Undecodable(e)
    };
    let not_json = |e: serde_json::Error| undecodable(json_problem(&e), Some(e));
    let api = |error: E, request_id: Option<String>| {
        Error::Api(Box::new(ApiError {
            status,
            error,
            request_id: request_id.or_else(|| head.request_id.clone()),
            retry_after: head.retry_after,
            attempts: 1,
        }))
    };
    if (300..400).contains(&status) {
        let reason = format!(
            "a redirect to `{}` that was not followed (only redirects within one origin are)",
            head.location.as_deref().unwrap_or("?")
        );
        return Err(undecodable(&reason, None));
    }
    // An error status without the error object: what a proxy or gateway answers.
    let bare = || {
        let mut e = StatusError::new(status, body);
        e.request_id = head.request_id.as_deref().map(Into::into);
        e.retry_after = head.retry_after;
        Error::Status(e)
    };
    if body.iter().all(u8::is_ascii_whitespace) {
        return Err(if status >= 400 {
            bare()
        } else {
            undecodable("the body is empty", None)
        });
    }
    // An answer that is JSON but not what the spec describes is walked for drift.
    let walk = |e: Option<&serde_json::Error>| {
        if let Some(notice) = notice
            && e.is_none_or(|e| e.classify() == serde_json::error::Category::Data)
        {
            notice.walk(status, body);
        }
    };
    if (200..300).contains(&status) {
        let decoded = decode_envelope::<T, E>(body, notice);
        match &decoded {
            Ok(envelope) if envelope.success => {}
            Ok(_) => walk(None),
            Err(e) => walk(Some(e)),
        }
        match decoded {
            Ok(envelope) if envelope.success => Ok(Response {
                data: envelope.data,
                request_id: envelope.request_id,
                metadata: envelope.metadata,
                pagination: envelope.pagination,
                skipped: 0,
            }),
            Ok(envelope) => match envelope.error {
                Some(error) => Err(api(error, Some(envelope.request_id))),
                None => Err(undecodable(
                    "`success` is false but the envelope has no error object",
                    None,
                )),
            },
            Err(e) => match serde_json::from_slice::<FailureEnvelope<E>>(body) {
                Ok(FailureEnvelope {
                    success: Some(false),
                    request_id,
                    error: Some(error),
                }) => Err(api(error, request_id)),
                _ if e.classify() == serde_json::error::Category::Data => {
                    // The page as far as it reads, record by record (partial.rs).
                    if records == Undecodable::Skip
                        && let Some(page) = read_page::<T>(body)
                    {
                        return Ok(page.into_response());
                    }
                    let mut error = describe_misfit::<T, E>(head, body, e);
                    error.body = Some(Box::new(body.into()));
                    Err(Error::Undecodable(error))
                }
                _ => Err(not_json(e)),
            },
        }
    } else {
        let decoded = serde_json::from_slice::<FailureEnvelope<E>>(body);
        walk(decoded.as_ref().err());
        match decoded {
            Ok(FailureEnvelope {
                request_id,
                error: Some(error),
                ..
            }) => Err(api(error, request_id)),
            _ if status >= 400 => Err(bare()),
            Ok(_) => Err(undecodable(
                "an error status without an error object in the body",
                None,
            )),
            Err(e) => Err(not_json(e)),
        }
    }
}

/// The error of a 2xx body that is JSON but not the envelope of `T`: decoded a second time,
/// tracking the path, to name the record type, the field and the position. Only failures pay
/// for this; the fast path is plain serde_json.
fn describe_misfit<T: serde::de::DeserializeOwned, E: ErrorBody>(
    head: &Head,
    body: &[u8],
    first: serde_json::Error,
) -> UndecodableError {
    let mut de = serde_json::Deserializer::from_slice(body);
    let (path, error) = match serde_path_to_error::deserialize::<_, SuccessEnvelope<T, E>>(&mut de)
    {
        Ok(_) => (String::new(), first),
        Err(e) => {
            let path = render_path(e.path());
            (path, e.into_inner())
        }
    };
    let mut message = error.to_string();
    let position = (error.line() > 0).then(|| (error.line(), error.column()));
    if let Some((line, column)) = position {
        let suffix = format!(" at line {line} column {column}");
        if let Some(stripped) = message.strip_suffix(&suffix) {
            message = stripped.to_string();
        }
    }
    // A missing field is named as if it were there: `data[3].time_open`.
    let missing = message
        .strip_prefix("missing field `")
        .and_then(|rest| rest.split_once('`'))
        .map(|(field, _)| field.to_string());
    let path = match missing {
        Some(field) if path.is_empty() => field,
        Some(field) => format!("{path}.{field}"),
        None => path,
    };
    let at = match position {
        Some((line, column)) => format!(" (line {line}, column {column})"),
        None => String::new(),
    };
    let reason = if path.starts_with("data[") {
        format!(
            "record {} at `{path}`{at}: {message}",
            short_type_name::<T>()
        )
    } else if path.is_empty() {
        format!("the JSON is not the response envelope{at}: {message}")
    } else {
        format!("the JSON is not the response envelope: `{path}`{at}: {message}")
    };
    let mut e = UndecodableError::new(head.status, body, &reason, Some(Box::new(error)));
    e.path = (!path.is_empty()).then(|| path.into());
    e.request_id = head.request_id.as_deref().map(Into::into);
    e
}

/// `data[3].time_open` from serde_path_to_error's path.
fn render_path(path: &serde_path_to_error::Path) -> String {
    use serde_path_to_error::Segment;
    let mut out = String::new();
    for segment in path {
        match segment {
            Segment::Seq { index } => out.push_str(&format!("[{index}]")),
            Segment::Map { key } | Segment::Enum { variant: key } => {
                if !out.is_empty() {
                    out.push('.');
                }
                out.push_str(key);
            }
            Segment::Unknown => out.push_str(if out.is_empty() { "?" } else { ".?" }),
        }
    }
    out
}

/// `PitDividend` for `mrds_model::records::PitDividend`.
pub(super) fn short_type_name<T>() -> &'static str {
    let name = std::any::type_name::<T>();
    let name = name.split('<').next().unwrap_or(name);
    name.rsplit("::").next().unwrap_or(name)
}

fn json_problem(e: &serde_json::Error) -> &'static str {
    match e.classify() {
        serde_json::error::Category::Eof => "the JSON ends early (truncated body)",
        serde_json::error::Category::Syntax => "the body is not JSON",
        serde_json::error::Category::Data => "the JSON is not the response envelope",
        serde_json::error::Category::Io => "the body could not be read",
    }
}
