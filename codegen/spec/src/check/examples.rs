//! The example request of a samples section: it names the endpoint's path and gives every
//! required parameter, and with its body it passes every check the generated code makes.

use mrds_runtime::text::percent_decode;

use super::{Cx, Target, Types, quoted};
use crate::ast::{self, Spanned};
use crate::model::{Endpoint, Operand, ParamId, PathTemplate, Segment};

impl Cx<'_> {
    /// The example's body: an endpoint with a body has one, of its body record's shape (what
    /// its checks say of it is judged with the example's parameters); one without has none. As
    /// compact JSON text.
    pub(super) fn example_body(
        &mut self,
        s: &Spanned<ast::Samples>,
        t: &Target<'_>,
        types: &Types<'_>,
    ) -> Option<String> {
        let ep = t.ep;
        match (&ep.body, &s.example_body) {
            (None, None) => None,
            (None, Some(body)) => {
                let d = self.err(body.key_at(), format!("endpoint `{}` takes no body", ep.id));
                Self::hint(d, "remove `example_body`");
                None
            }
            (Some(_), None) => {
                let d = self.err(
                    s.key_at(),
                    format!("the samples of `{}` lack the body the example sends", ep.id),
                );
                Self::hint(d, "add `example_body:` with the body, as it travels");
                None
            }
            (Some(body), Some(value)) => {
                let record = &types.records[body.record.index()];
                self.sample_record(value, record, types);
                serde_json::to_string(&value.item).ok()
            }
        }
    }

    /// The example request must name the endpoint's path and give every required parameter;
    /// with its body (`body`, when the endpoint takes one and the sample gives one of the
    /// record's shape), it must pass every check the generated code makes.
    pub(super) fn sample_example(
        &mut self,
        example: &Spanned<String>,
        body: Option<&ast::Value>,
        t: &Target<'_>,
    ) {
        let (at, ep) = (example.at(), t.ep);
        let (route, query) = example.split_once('?').unwrap_or((example, ""));
        if !route_matches(&ep.path, route) {
            let d = self.err(
                at,
                format!("the example `{example}` is not a request of `{}`", ep.path),
            );
            Self::hint(
                d,
                format!("start it with the endpoint's path, e.g. `{}?...`", ep.path),
            );
            return;
        }
        let names: Vec<&str> = query
            .split('&')
            .filter(|p| !p.is_empty())
            .map(|p| p.split_once('=').map_or(p, |(n, _)| n))
            .collect();
        // A declared parameter that did not check is reported already.
        let declared = |name: &str| t.declared.iter().any(|p| p.name == name);
        for name in names
            .iter()
            .filter(|n| ep.param_named(n).is_some() || !declared(n))
        {
            if ep
                .param_named(name)
                .is_none_or(|p| p.location == ast::ParamLocation::Path)
            {
                let d = self.err(
                    at,
                    format!(
                        "the example names `{name}`, which is not a query parameter of `{}`",
                        ep.id
                    ),
                );
                Self::suggest(d, name, ep.params.iter().map(|p| p.wire.as_str()));
            }
        }
        let missing: Vec<&str> = ep
            .params
            .iter()
            .filter(|p| p.required && p.location == ast::ParamLocation::Query)
            .map(|p| p.wire.as_str())
            .filter(|w| !names.contains(w))
            .collect();
        if !missing.is_empty() {
            let d = self.err(
                at,
                format!("the example lacks the required {}", quoted(&missing)),
            );
            Self::hint(d, "the example must be a valid request");
        }
        // Its values, against every check the generated `validate()` makes.
        let mut values: Vec<(ParamId, String)> = Vec::new();
        for (name, value) in example_pairs(&ep.path.to_string(), example) {
            let Some(p) = ep.param_named(&name) else {
                continue; // reported above
            };
            let repeats = p
                .list
                .is_some_and(|l| l.style == crate::model::ListStyle::Repeated);
            if !repeats && values.iter().any(|(id, _)| *id == p.id) {
                let d = self.err(at, format!("the example gives `{name}` twice"));
                Self::hint(d, "a parameter given twice is refused; give it once");
                continue;
            }
            values.push((p.id, value));
        }
        let json = body.map(|b| serde_json::to_value(&b.item).unwrap_or_default());
        let refused = ep.problems(t.body, &values, json.as_ref());
        for problem in refused.iter().filter(|p| !p.rule.ends_with(".required")) {
            let (at, what) = match (problem.operand, body) {
                (Operand::Field(_), Some(b)) => (b.at(), "the example body"),
                _ => (at, "the example"),
            };
            let value = if problem.got.is_empty() {
                String::new()
            } else {
                format!(" `{}`", problem.got)
            };
            let d = self.err(
                at,
                format!(
                    "{what} is refused: `{}`{value} {} (rule `{}`)",
                    problem.param, problem.reason, problem.rule
                ),
            );
            Self::hint(d, "the example must be a valid request");
        }
    }
}

/// The decoded parameters of a (valid) example request of `ep`, path parameters first; `None`
/// when a pair names no parameter of the endpoint (reported by [`Cx::sample_example`]).
pub(super) fn example_values(ep: &Endpoint, example: &str) -> Option<Vec<(ParamId, String)>> {
    example_pairs(&ep.path.to_string(), example)
        .into_iter()
        .map(|(name, value)| Some((ep.param_named(&name)?.id, value)))
        .collect()
}

/// The decoded pairs of an example request of `template`: path parameters, then the query's
/// pairs (`+` is a space, `%XX` an escaped byte).
fn example_pairs(template: &str, example: &str) -> Vec<(String, String)> {
    let (route, query) = example.split_once('?').unwrap_or((example, ""));
    let path = template
        .split('/')
        .zip(route.split('/'))
        .filter_map(|(t, r)| {
            let name = t.strip_prefix('{')?.strip_suffix('}')?;
            Some((name.to_string(), percent_decode(r)))
        });
    let query = query.split('&').filter(|p| !p.is_empty()).map(|p| {
        let (n, v) = p.split_once('=').unwrap_or((p, ""));
        (percent_decode(n), percent_decode(v))
    });
    path.chain(query).collect()
}

/// True when `route` is `template` with every placeholder filled by one non-empty segment.
fn route_matches(template: &PathTemplate, route: &str) -> bool {
    let Some(rest) = route.strip_prefix('/') else {
        return false;
    };
    let parts: Vec<&str> = rest.split('/').collect();
    parts.len() == template.segments.len()
        && template.segments.iter().zip(&parts).all(|(t, r)| match t {
            Segment::Param { .. } => !r.is_empty(),
            Segment::Literal(l) => l == r,
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn example_values_are_decoded() {
        let got = example_pairs(
            "/v1/persons/{person_id}/commentary",
            "/v1/persons/ab%2Dc/commentary?a=1&name=MLC%2064Gb+x&t=2026-01-01T00:00:00%2B02:00&bad=%zz&end=%4",
        );
        let want = [
            ("person_id", "ab-c"),
            ("a", "1"),
            ("name", "MLC 64Gb x"),
            ("t", "2026-01-01T00:00:00+02:00"),
            ("bad", "%zz"),
            ("end", "%4"),
        ];
        let want: Vec<(String, String)> = want
            .iter()
            .map(|(a, b)| (a.to_string(), b.to_string()))
            .collect();
        assert_eq!(got, want);
    }
}
