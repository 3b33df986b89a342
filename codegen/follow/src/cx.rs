//! What the report's items read: the resolved model, and the spec's files parsed once with
//! the places of their nodes ([`File`]), found by the names the findings give (a record's
//! fields, an endpoint's parameter or rule, a value set's values, the samples of an endpoint).

use mrds_spec::model::Api;
use mrds_spec::yaml::Node;

use super::Options;
use super::splice::{File, item_with, value};

/// The model, the files and the options of one report.
pub(super) struct Cx<'a> {
    pub(super) api: &'a Api,
    /// The spec's files as the loader names them, with their texts.
    pub(super) sources: &'a [(String, String)],
    pub(super) files: Vec<File>,
    pub(super) options: &'a Options,
}

impl<'a> Cx<'a> {
    pub(super) fn new(api: &'a Api, sources: &'a [(String, String)], options: &'a Options) -> Self {
        Self {
            api,
            sources,
            files: sources.iter().map(|(n, t)| File::new(n, t)).collect(),
            options,
        }
    }

    /// The first file holding `path`, and the node there.
    pub(super) fn find(&self, path: &[&str]) -> Option<(&File, &Node)> {
        self.files.iter().find_map(|f| f.at(path).map(|n| (f, n)))
    }

    /// The list of `record`'s fields (`envelope`: the envelope's).
    pub(super) fn record_fields(&self, record: &str) -> Option<(&File, &Node)> {
        if record == "envelope" {
            self.find(&["service", "envelope", "fields"])
        } else {
            self.find(&["records", record, "fields"])
        }
    }

    /// The item of `field` in the list of `record`'s fields.
    pub(super) fn field(&self, record: &str, field: &str) -> Option<(&File, &Node)> {
        let (file, fields) = self.record_fields(record)?;
        Some((file, item_with(fields, "name", field)?))
    }

    /// The mapping of endpoint `id`.
    pub(super) fn endpoint(&self, id: &str) -> Option<(&File, &Node)> {
        self.find(&["endpoints", id])
    }

    /// The item of parameter `name` of endpoint `id`.
    pub(super) fn param(&self, id: &str, name: &str) -> Option<(&File, &Node)> {
        let (file, endpoint) = self.endpoint(id)?;
        Some((file, item_with(value(endpoint, "params")?, "name", name)?))
    }

    /// The item of rule `rule` of endpoint `id`.
    pub(super) fn rule(&self, id: &str, rule: &str) -> Option<(&File, &Node)> {
        let (file, endpoint) = self.endpoint(id)?;
        Some((file, item_with(value(endpoint, "rules")?, "id", rule)?))
    }

    /// The samples section of endpoint `id`.
    pub(super) fn samples(&self, id: &str) -> Option<(&File, &Node)> {
        self.find(&["samples", id])
    }

    /// `spec/records.yaml:12`: where a node of a file is.
    pub(super) fn line(&self, file: &File, node: &Node) -> String {
        format!("{}:{}", file.name, node.span.line)
    }

    /// The date of the history rows the edits add.
    pub(super) fn today(&self) -> &str {
        &self.options.today
    }
}
