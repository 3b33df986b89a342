//! Tests of the kinds: their ids, their handles' impacts, the README's table, their steps.

use super::*;
use crate::impact::Impact;

#[test]
fn ids_are_sorted_unique_and_well_formed() {
    let ids: Vec<&str> = ChangeKind::ALL.iter().map(|c| c.id()).collect();
    assert!(ids.windows(2).all(|w| w[0] < w[1]), "{ids:?}");
    for id in ids {
        let (kind, what) = id.split_once('.').expect("kind.what");
        assert!(!kind.is_empty() && !what.is_empty(), "{id}");
        assert_eq!(ChangeKind::from_id(id).map(ChangeKind::id), Some(id));
    }
}

/// A handle classifies its kind with the impacts the kind declares, and with those the
/// finding decides where the kind leaves them to it.
#[test]
fn handles_take_the_declared_impacts() {
    use Impact::*;
    let fixed = |c: Classified| {
        let info = c.kind().info();
        (info.clients.fixed(), info.servers.fixed())
    };
    let both = |c: Classified| (c.kind(), c.impacts().clients, c.impacts().servers);
    let fixed_kind = kind::ParamAddedRequired;
    assert_eq!(
        both(fixed_kind),
        (ChangeKind::ParamAddedRequired, Breaking, Compatible)
    );
    assert_eq!(fixed(fixed_kind), (Some(Breaking), Some(Compatible)));
    let clients = kind::RuleAdded.clients(Compatible);
    assert_eq!(
        both(clients),
        (ChangeKind::RuleAdded, Compatible, Compatible)
    );
    assert_eq!(fixed(clients), (None, Some(Compatible)));
    let servers = kind::EndpointAdded.servers(Breaking);
    assert_eq!(
        both(servers),
        (ChangeKind::EndpointAdded, Compatible, Breaking)
    );
    assert_eq!(fixed(servers), (Some(Compatible), None));
    let decided = kind::FieldFormatChanged.decided(Impacts {
        clients: Documentation,
        servers: Breaking,
    });
    assert_eq!(
        both(decided),
        (ChangeKind::FieldFormatChanged, Documentation, Breaking)
    );
    assert_eq!(fixed(decided), (None, None));
}

/// The README's cells: a fixed impact with its reason, or the rule of a finding-decided one.
#[test]
fn the_table_states_fixed_impacts_and_rules() {
    let table = readme_table();
    for row in [
        "| `param.added_required` | a new required parameter | breaking | compatible: old servers ignore unknown parameters | major |",
        "| `rule.added` | a new rule across parameters | breaking (compatible on parameters old clients never send) | compatible | minor |",
        "| `samples.added` | sample data for an endpoint | documentation | documentation | patch |",
    ] {
        assert!(table.lines().any(|l| l == row), "{row}");
    }
    assert_eq!(table.lines().count(), 2 + ChangeKind::ALL.len());
}

/// Every change is released: documentation at least takes a patch step.
#[test]
fn every_kind_takes_a_step() {
    for kind in ChangeKind::ALL {
        assert!(kind.step() >= Step::Patch, "{kind}");
    }
}
