//! Every kind of change `spec-diff` reports, declared with `declare.rs`'s grammar, sorted by
//! id: its variant of [`ChangeKind`], its [`KindInfo`] and its handle in `kind`.

use super::{Classified, KindInfo};
use crate::declare::kinds;
use crate::impact::{Impact, Impacts, KindImpact};
use crate::semver::Step;

kinds! {
    /// The key header's documentation.
    AuthDocChanged = auth.doc_changed {
        "the key header's documentation",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// The header carrying the API key.
    AuthHeaderChanged = auth.header_changed {
        "the header carrying the API key",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// A body field's constraint (range, pattern, format, type, values) moved both ways.
    BodyConstraintChanged = body.constraint_changed {
        "a body field's constraint changed both ways",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// A body field accepts more than it did.
    BodyConstraintRelaxed = body.constraint_relaxed {
        "a body field's constraint relaxed (wider range, looser pattern or format)",
        clients: Compatible, servers: Breaking "new clients may send values old servers reject",
        semver: Minor,
    }
    /// A body field accepts less than it did.
    BodyConstraintTightened = body.constraint_tightened {
        "a body field's constraint tightened (narrower range, stricter pattern or format)",
        clients: Breaking "old clients may send values new servers reject", servers: Compatible,
        semver: Minor,
    }
    /// A new optional field of a body.
    BodyFieldAddedOptional = body.field_added_optional {
        "a new optional body field",
        clients: Compatible, servers: Compatible "old servers ignore it",
        semver: Minor,
    }
    /// A new required field of a body.
    BodyFieldAddedRequired = body.field_added_required {
        "a new required body field",
        clients: Breaking "old clients do not send it", servers: Compatible "old servers ignore it",
        semver: Major,
    }
    /// A body field's documentation.
    BodyFieldDocChanged = body.field_doc_changed {
        "a body field's documentation, provenance or pattern doc (or a constraint accepting the same values)",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A required body field became optional.
    BodyFieldNowOptional = body.field_now_optional {
        "a required body field became optional",
        clients: Compatible, servers: Breaking "new clients may leave it out",
        semver: Major,
    }
    /// An optional body field became required.
    BodyFieldNowRequired = body.field_now_required {
        "an optional body field became required",
        clients: Breaking "old clients may leave it out", servers: Compatible,
        semver: Major,
    }
    /// An optional body field is gone.
    BodyFieldRemovedOptional = body.field_removed_optional {
        "an optional body field is gone",
        clients: Compatible "new servers ignore it", servers: Compatible,
        semver: Major,
    }
    /// A required body field is gone.
    BodyFieldRemovedRequired = body.field_removed_required {
        "a required body field is gone",
        clients: Compatible "new servers ignore it", servers: Breaking "new clients leave it out",
        semver: Major,
    }
    /// A body field's type (one without constraints, such as an array or a record).
    BodyFieldTypeChanged = body.field_type_changed {
        "a body field's type (an array, a record, a number)",
        clients: ByFinding "breaking when new servers cannot decode what old clients send",
        servers: ByFinding "breaking when old servers cannot decode what new clients send",
        semver: Major,
    }
    /// A new endpoint.
    EndpointAdded = endpoint.added {
        "a new endpoint",
        clients: Compatible,
        servers: ByFinding "breaking: 404 from old servers (compatible when it is marked removed)",
        semver: Minor,
    }
    /// A key is no longer required.
    EndpointAuthOptional = endpoint.auth_optional {
        "a key is no longer required",
        clients: Compatible, servers: Breaking "401 from old servers",
        semver: Minor,
    }
    /// A key is now required.
    EndpointAuthRequired = endpoint.auth_required {
        "a key is now required",
        clients: Breaking "401 from new servers", servers: Compatible,
        semver: Minor,
    }
    /// Summary, doc, ordering prose, provenance or removal date.
    EndpointDocChanged = endpoint.doc_changed {
        "summary, doc, ordering prose, provenance or removal date",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// The parameter a 404 looks up by.
    EndpointLookupChanged = endpoint.lookup_changed {
        "the parameter a 404 RESOURCE_NOT_FOUND looks up by (added / removed / changed)",
        clients: ByFinding "breaking / compatible / breaking",
        servers: ByFinding "compatible / breaking / breaking",
        semver: Patch,
    }
    /// The endpoint is marked removed.
    EndpointMarkedRemoved = endpoint.marked_removed {
        "the endpoint is marked removed (410)",
        clients: Breaking "410 from new servers", servers: Compatible,
        semver: Minor,
    }
    /// The documented order of the records.
    EndpointOrderChanged = endpoint.order_changed {
        "the documented order of the records (added / removed / changed)",
        clients: ByFinding "compatible / breaking / breaking",
        servers: ByFinding "breaking / compatible / breaking",
        semver: Patch,
    }
    /// Which parameters page the records.
    EndpointPagingChanged = endpoint.paging_changed {
        "which parameters page the records",
        clients: Documentation, servers: Documentation,
        // The paging trait of the parameter type and the client's stream may go away.
        semver: Major,
    }
    /// The path.
    EndpointPathChanged = endpoint.path_changed {
        "the path",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// The endpoint is gone from the spec.
    EndpointRemoved = endpoint.removed {
        "the endpoint is gone from the spec",
        clients: ByFinding "breaking: 404 (compatible when it was marked removed already)",
        servers: Compatible,
        semver: Major,
    }
    /// The endpoint id, at the same method and path.
    EndpointRenamed = endpoint.renamed {
        "the endpoint id, at the same method and path",
        clients: Documentation, servers: Documentation,
        semver: Major,
    }
    /// The endpoint is no longer marked removed.
    EndpointRestored = endpoint.restored {
        "the endpoint is no longer marked removed",
        clients: Compatible, servers: Breaking "410 from old servers",
        semver: Minor,
    }
    /// The record in `data`.
    EndpointReturnsChanged = endpoint.returns_changed {
        "the record in `data`",
        clients: ByFinding "breaking unless the old record decodes the new one",
        servers: ByFinding "breaking unless the new record decodes the old one",
        semver: Major,
    }
    /// The envelope's documentation.
    EnvelopeDocChanged = envelope.doc_changed {
        "the envelope's documentation",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A new error code.
    ErrorCodeAdded = error_code.added {
        "a new error code",
        clients: Compatible "decoded as an unknown code", servers: Compatible,
        semver: Minor,
    }
    /// Another code answers an HTTP status (of several codes sharing it, the one marked
    /// `default`, else the first declared).
    ErrorCodeAnswerChanged = error_code.answer_changed {
        "the code the sample server answers an HTTP status with",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// An error code's documentation.
    ErrorCodeDocChanged = error_code.doc_changed {
        "an error code's documentation or provenance",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// An error code is gone.
    ErrorCodeRemoved = error_code.removed {
        "an error code is gone",
        clients: Compatible, servers: Compatible,
        semver: Major,
    }
    /// The HTTP status of an error code.
    ErrorCodeStatusChanged = error_code.status_changed {
        "the HTTP status of an error code",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// A new optional field.
    FieldAddedOptional = field.added_optional {
        "a new optional field",
        clients: Compatible, servers: Compatible,
        semver: Minor,
    }
    /// A new required field.
    FieldAddedRequired = field.added_required {
        "a new required field",
        clients: Compatible, servers: Breaking "old servers leave it out",
        semver: Major,
    }
    /// A field's documentation.
    FieldDocChanged = field.doc_changed {
        "a field's documentation or provenance",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A field's documented format.
    FieldFormatChanged = field.format_changed {
        "a field's documented format (changed / only added or removed)",
        clients: ByFinding "breaking / documentation",
        servers: ByFinding "breaking / documentation",
        // The typed-time accessor of the field may change or go away.
        semver: Major,
    }
    /// A required field became optional.
    FieldNowOptional = field.now_optional {
        "a required field became optional",
        clients: Breaking, servers: Compatible,
        semver: Major,
    }
    /// An optional field became required.
    FieldNowRequired = field.now_required {
        "an optional field became required",
        clients: Compatible, servers: Breaking,
        semver: Major,
    }
    /// An optional field is gone.
    FieldRemovedOptional = field.removed_optional {
        "an optional field is gone",
        clients: Compatible, servers: Compatible,
        semver: Major,
    }
    /// A required field is gone.
    FieldRemovedRequired = field.removed_required {
        "a required field is gone",
        clients: Breaking, servers: Compatible,
        semver: Major,
    }
    /// A field's type or array flag.
    FieldTypeChanged = field.type_changed {
        "a field's type or array flag",
        clients: ByFinding "breaking unless the old type decodes the new values",
        servers: ByFinding "breaking unless the new type decodes the old values",
        semver: Major,
    }
    /// A new row of the change history.
    HistoryEntryAdded = history.entry_added {
        "a new row of the change history",
        clients: Documentation, servers: Documentation,
        semver: Minor,
    }
    /// A row of the change history changed.
    HistoryEntryChanged = history.entry_changed {
        "a row of the change history changed",
        clients: Documentation, servers: Documentation,
        semver: Minor,
    }
    /// A row of the change history is gone.
    HistoryEntryRemoved = history.entry_removed {
        "a row of the change history is gone",
        clients: Documentation, servers: Documentation,
        semver: Minor,
    }
    /// A new optional parameter.
    ParamAddedOptional = param.added_optional {
        "a new optional parameter (with or without default)",
        clients: Compatible, servers: Compatible "old servers ignore it",
        semver: Minor,
    }
    /// A new required parameter.
    ParamAddedRequired = param.added_required {
        "a new required parameter",
        clients: Breaking, servers: Compatible "old servers ignore unknown parameters",
        semver: Major,
    }
    /// A parameter's default added, removed or changed.
    ParamDefaultChanged = param.default_changed {
        "a parameter's default added, removed or changed",
        clients: Breaking,
        servers: Breaking "a request leaving it out means something else (generated clients send their default)",
        semver: Minor,
    }
    /// A parameter's documentation (or a range written otherwise that accepts the same integers).
    ParamDocChanged = param.doc_changed {
        "a parameter's documentation, provenance or pattern doc (or a range accepting the same integers)",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A parameter's format.
    ParamFormatChanged = param.format_changed {
        "a parameter's format",
        clients: ByFinding "breaking when old clients may send a text new servers reject",
        servers: ByFinding "breaking when new clients may send a text old servers reject",
        // The typed-time setters of the parameter may change or go away.
        semver: Major,
    }
    /// The bounds of a list's number of items moved both ways.
    ParamItemsChanged = param.items_changed {
        "the number of items a list takes moved",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// A list takes fewer numbers of items.
    ParamItemsNarrowed = param.items_narrowed {
        "the number of items a list takes narrowed",
        clients: Breaking, servers: Compatible,
        semver: Minor,
    }
    /// A list takes more numbers of items.
    ParamItemsWidened = param.items_widened {
        "the number of items a list takes widened",
        clients: Compatible, servers: Breaking,
        semver: Minor,
    }
    /// How a list travels (comma-separated or repeated).
    ParamListStyleChanged = param.list_style_changed {
        "how a list travels (`comma` or `repeated`)",
        clients: Breaking "a list of two items is one item to the other side, or refused",
        servers: Breaking "a list of two items is one item to the other side, or refused",
        semver: Minor,
    }
    /// Query or path.
    ParamLocationChanged = param.location_changed {
        "query or path",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// A required parameter became optional.
    ParamNowOptional = param.now_optional {
        "a required parameter became optional",
        clients: Compatible, servers: Breaking,
        semver: Major,
    }
    /// An optional parameter became required.
    ParamNowRequired = param.now_required {
        "an optional parameter became required",
        clients: Breaking, servers: Compatible,
        semver: Major,
    }
    /// A path parameter's name.
    ParamPathRenamed = param.path_renamed {
        "a path parameter's name (not on the wire)",
        clients: Documentation, servers: Documentation,
        semver: Major,
    }
    /// A parameter's pattern added, removed or changed.
    ParamPatternChanged = param.pattern_changed {
        "a parameter's pattern added, removed or changed",
        clients: ByFinding "breaking when old clients may send a text new servers reject",
        servers: ByFinding "breaking when new clients may send a text old servers reject",
        semver: Minor,
    }
    /// An integer range moved.
    ParamRangeChanged = param.range_changed {
        "an integer range moved",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// An integer range narrowed.
    ParamRangeNarrowed = param.range_narrowed {
        "an integer range narrowed",
        clients: Breaking, servers: Compatible,
        semver: Minor,
    }
    /// An integer range widened.
    ParamRangeWidened = param.range_widened {
        "an integer range widened",
        clients: Compatible, servers: Breaking,
        semver: Minor,
    }
    /// An optional parameter is gone.
    ParamRemovedOptional = param.removed_optional {
        "an optional parameter is gone",
        clients: Compatible "new servers ignore it", servers: Compatible,
        semver: Major,
    }
    /// A required parameter is gone.
    ParamRemovedRequired = param.removed_required {
        "a required parameter is gone",
        clients: Compatible "new servers ignore it", servers: Breaking,
        semver: Major,
    }
    /// A parameter's type (or value set).
    ParamTypeChanged = param.type_changed {
        "a parameter's type (or value set)",
        clients: ByFinding "breaking when old clients may send a text new servers reject",
        servers: ByFinding "breaking when new clients may send a text old servers reject",
        semver: Major,
    }
    /// A new record.
    RecordAdded = record.added {
        "a new record",
        clients: Compatible, servers: Compatible,
        semver: Minor,
    }
    /// A record's documentation.
    RecordDocChanged = record.doc_changed {
        "a record's documentation or provenance",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A record is gone.
    RecordRemoved = record.removed {
        "a record is gone",
        clients: Compatible, servers: Compatible,
        semver: Major,
    }
    /// A new rule across parameters.
    RuleAdded = rule.added {
        "a new rule across parameters",
        clients: ByFinding "breaking (compatible on parameters old clients never send)",
        servers: Compatible,
        semver: Minor,
    }
    /// A rule changed both ways (or undecidably).
    RuleChanged = rule.changed {
        "a rule changed both ways (or undecidably)",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// A rule's documentation.
    RuleDocChanged = rule.doc_changed {
        "a rule's documentation",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A rule accepts more requests.
    RuleRelaxed = rule.relaxed {
        "a rule accepts more requests",
        clients: Compatible, servers: Breaking,
        semver: Minor,
    }
    /// A rule is gone.
    RuleRemoved = rule.removed {
        "a rule is gone",
        clients: Compatible,
        servers: ByFinding "breaking (compatible on parameters new clients never send)",
        semver: Minor,
    }
    /// A rule's id, with the same check.
    RuleRenamed = rule.renamed {
        "a rule's id, with the same check",
        clients: Documentation, servers: Documentation,
        semver: Minor,
    }
    /// A rule accepts fewer requests.
    RuleTightened = rule.tightened {
        "a rule accepts fewer requests",
        clients: Breaking, servers: Compatible,
        semver: Minor,
    }
    /// A generated Rust name, with the same thing on the wire.
    RustRenamed = rust.renamed {
        "a generated Rust name (an endpoint's `rust:`, a value's `rust:`, a record's or field's name)",
        clients: Documentation, servers: Documentation,
        semver: Major,
    }
    /// Sample data for an endpoint.
    SamplesAdded = samples.added {
        "sample data for an endpoint",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// An endpoint's sample data.
    SamplesChanged = samples.changed {
        "an endpoint's sample data",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// An endpoint's sample data is gone.
    SamplesRemoved = samples.removed {
        "an endpoint's sample data is gone",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// The base path.
    ServiceBasePathChanged = service.base_path_changed {
        "the base path",
        clients: Breaking, servers: Breaking,
        semver: Minor,
    }
    /// The service's title or description.
    ServiceDocChanged = service.doc_changed {
        "the service's title or description",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// The interface description's version.
    ServiceVersionChanged = service.version_changed {
        "`api_version`, the interface description's version",
        clients: Documentation, servers: Documentation,
        semver: Minor,
    }
    /// A new value set.
    ValueSetAdded = value_set.added {
        "a new value set",
        clients: Compatible, servers: Compatible,
        semver: Minor,
    }
    /// A value set's documentation.
    ValueSetDocChanged = value_set.doc_changed {
        "a value set's or value's documentation or provenance",
        clients: Documentation, servers: Documentation,
        semver: Patch,
    }
    /// A value set is gone.
    ValueSetRemoved = value_set.removed {
        "a value set is gone",
        clients: Compatible, servers: Compatible,
        semver: Major,
    }
    /// A new value of a value set.
    ValueSetValueAdded = value_set.value_added {
        "a new value of a value set (parameters use it / only records do)",
        clients: Compatible "decoded as `Unknown` in answers",
        servers: ByFinding "breaking / compatible",
        semver: Minor,
    }
    /// A value of a value set is gone.
    ValueSetValueRemoved = value_set.value_removed {
        "a value of a value set is gone (parameters use it / only records do)",
        clients: ByFinding "breaking / compatible", servers: Compatible,
        semver: Major,
    }
}
