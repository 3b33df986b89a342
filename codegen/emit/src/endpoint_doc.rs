//! The description of an endpoint, built once for every generated doc that describes it: the
//! parameter type, the server trait's method, the client's method and the OpenAPI operation
//! say the same things in the same words, each adding only what is its own.

use mrds_spec::model::{AuthMode, Endpoint};

use super::prose;

/// How the text is written: rustdoc (spec prose escaped, so it never becomes markup or a
/// doctest) or plain text (the OpenAPI document).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Style {
    /// Rust documentation.
    Rustdoc,
    /// Plain text.
    Plain,
}

/// The description of endpoint `e`.
pub struct EndpointDoc<'a> {
    e: &'a Endpoint,
    style: Style,
}

impl<'a> EndpointDoc<'a> {
    /// The description of `e`, written in `style`.
    pub fn new(e: &'a Endpoint, style: Style) -> Self {
        Self { e, style }
    }

    fn text(&self, s: &str) -> String {
        match self.style {
            Style::Rustdoc => prose(s),
            Style::Plain => s.trim().to_string(),
        }
    }

    /// The first line: `` `GET /v1/stocks/dividends`: `` and the summary.
    pub fn head(&self) -> String {
        format!(
            "`{} {}`: {}",
            self.e.method.as_str(),
            self.e.path,
            self.text(&self.e.summary)
        )
    }

    /// The paragraphs after the first line, each starting with a blank line: the longer doc,
    /// the ordering, the key, the removal, and the rules across parameters.
    pub fn body(&self) -> String {
        let e = self.e;
        let mut out = String::new();
        if let Some(doc) = &e.doc {
            out.push_str(&format!("\n\n{}", self.text(doc)));
        }
        if let Some(ordering) = &e.ordering {
            out.push_str(&format!("\n\nOrdering: {}", self.text(ordering)));
        }
        out.push_str(match e.auth {
            AuthMode::Required => "\n\nThe API key is required.",
            AuthMode::Optional => {
                "\n\nThe API key is accepted but not required; a key that is sent must be known."
            }
        });
        if let Some(r) = &e.removed {
            out.push_str(&format!(
                "\n\nRemoved from the service on {} (the service's release {}): the service \
                 answers 410 `ENDPOINT_REMOVED`.",
                r.date, r.version
            ));
        }
        // The rules, over parameters and the body's fields (`body.<field>`).
        let rules: Vec<(&str, &str, bool)> = (e.rules.iter())
            .map(|r| (r.id.as_str(), r.doc.as_str(), r.provenance.is_assumed()))
            .collect();
        if !rules.is_empty() {
            let across = if e.body.is_some() {
                "parameters and the body's fields"
            } else {
                "parameters"
            };
            out.push_str(&format!(
                "\n\nRules across {across} (a request breaking one is answered 400 \
                 `INVALID_PARAMETER`, with the rule id in the reason):\n",
            ));
            for (id, doc, assumed) in rules {
                let assumed = if assumed { " (assumed)" } else { "" };
                out.push_str(&format!("\n- `{id}`: {}{assumed}", self.text(doc)));
            }
        }
        if e.body.is_some() {
            out.push_str(
                "\n\nThe request carries a JSON body (`Content-Type: application/json`), \
                 checked with the parameters.",
            );
            if !e.idempotent {
                out.push_str(
                    " Not idempotent: a client does not repeat the call once it may have \
                     reached the service.",
                );
            }
        }
        out
    }

    /// The head and the body.
    pub fn full(&self) -> String {
        format!("{}{}", self.head(), self.body())
    }
}
