//! What one check found ([`Verdict`]), with the request and the answer ([`Outcome`]).

use mrds_probes::Key;
use mrds_spec::model::Method;

/// What one check found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The answer is the one the spec predicts.
    Passed,
    /// It is not; why.
    Failed(String),
    /// The server answered 501 `NOT_IMPLEMENTED`: it does not serve the endpoint, whose other
    /// checks were not sent.
    NotImplemented,
}

/// What one check found, with the request and the answer.
#[derive(Clone, Debug)]
pub struct Outcome {
    /// The check id.
    pub id: String,
    /// The endpoint id.
    pub endpoint: String,
    /// The method.
    pub method: Method,
    /// The URL requested.
    pub url: String,
    /// Which key was sent.
    pub key: Key,
    /// The request's body, when it had one.
    pub sent: Option<mrds_probes::SentBody>,
    /// The answer's status, when one came.
    pub status: Option<u16>,
    /// The first bytes of the answer's body.
    pub body: String,
    /// The verdict.
    pub verdict: Verdict,
}

impl Outcome {
    /// The reason the check failed, if it did.
    pub fn failure(&self) -> Option<&str> {
        match &self.verdict {
            Verdict::Failed(why) => Some(why),
            _ => None,
        }
    }

    /// A `curl` command repeating the request, to paste into a shell: the key stays in
    /// `$MRDS_API_KEY`, inside double quotes so the shell expands it; the URL is in single
    /// quotes (it holds `&`), and so is a body (JSON holds `"`); a body too long to paste
    /// (the probe past the size limit) is described instead.
    pub fn curl(&self, header: &str) -> String {
        let quoted = |text: &str| format!("'{}'", text.replace('\'', "'\\''"));
        let key = match self.key {
            Key::Valid => format!(" -H \"{header}: $MRDS_API_KEY\""),
            Key::Wrong => format!(" -H '{header}: {}'", mrds_probes::WRONG_KEY),
            Key::Missing => String::new(),
        };
        let method = match self.method {
            Method::Get => String::new(),
            other => format!(" -X {other}"),
        };
        let body = match &self.sent {
            None => String::new(),
            Some(sent) if sent.text.len() > 512 => format!(
                " -H 'Content-Type: {}' --data-binary @body.json  # body.json: {} bytes",
                sent.content_type,
                sent.text.len()
            ),
            Some(sent) => format!(
                " -H 'Content-Type: {}' --data-binary {}",
                sent.content_type,
                quoted(&sent.text)
            ),
        };
        format!("curl -sS{method}{key} {}{body}", quoted(&self.url))
    }
}
