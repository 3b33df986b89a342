//! The modules of a crate and the paths between them, read from its files: each path resolved
//! to the module defining what it names, and the import cycles among the children of a module.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use super::lex::{Kind, Token, UseLeaf, is_path, lex, path_at, peek, skip_group, use_tree};

/// A module's path below the crate root (empty: the root).
pub(super) type ModPath = Vec<String>;

/// One path naming an item outside the module it is written in.
#[derive(Clone, Debug)]
struct Reference {
    /// The module whose code holds the path.
    from: ModPath,
    /// The file (below the crate's source directory) and line.
    file: String,
    line: usize,
    /// The path as written (`crate::validate::ValidationError`).
    written: String,
    /// The path made absolute: from the crate root, without `crate`.
    absolute: ModPath,
}

/// What the crate's files say of its modules and their paths.
#[derive(Debug, Default)]
pub(super) struct Crate {
    /// Every module, with its child modules.
    pub(super) children: BTreeMap<ModPath, BTreeSet<String>>,
    /// The names each module brings into scope with `use` (and the macros exported at the
    /// root): the absolute path each stands for, or `None` outside the crate.
    bindings: BTreeMap<ModPath, BTreeMap<String, Option<ModPath>>>,
    references: Vec<Reference>,
    /// The `use` declarations read so far, resolved once every module is known.
    uses: Vec<(ModPath, String, UseLeaf)>,
}

impl Crate {
    /// Reads the crate whose files are `tree` (by path below its source directory), from
    /// `lib.rs` through its `mod` declarations.
    pub(super) fn read(tree: &BTreeMap<String, String>) -> Result<Crate, String> {
        let mut krate = Crate::default();
        let mut queue = VecDeque::from([(Vec::new(), "lib.rs".to_string())]);
        while let Some((module, file)) = queue.pop_front() {
            let text = tree
                .get(&file)
                .ok_or_else(|| format!("no file {file} for module {}", module.join("::")))?;
            let tokens = lex(text).map_err(|e| format!("{file}: {e}"))?;
            let declared = krate.read_file(&module, &file, &tokens);
            // `lib.rs` and `mod.rs` hold their children in their directory; `a.rs` in `a/`.
            let dir = match file.rsplit_once('/') {
                Some((dir, "mod.rs")) => format!("{dir}/"),
                None if file == "lib.rs" || file == "mod.rs" => String::new(),
                _ => format!("{}/", file.trim_end_matches(".rs")),
            };
            for child in declared {
                let mut path = module.clone();
                path.extend(child.iter().cloned());
                let stem = child.join("/");
                let flat = format!("{dir}{stem}.rs");
                let nested = format!("{dir}{stem}/mod.rs");
                let file = if tree.contains_key(&flat) {
                    flat
                } else {
                    nested
                };
                queue.push_back((path, file));
            }
        }
        krate.bind_uses();
        Ok(krate)
    }

    /// Resolves the `use` declarations: a path starting with a name (not `crate`, `super`,
    /// `self`) names a child module, a name another `use` brings in, or another crate.
    fn bind_uses(&mut self) {
        let mut pending = std::mem::take(&mut self.uses);
        loop {
            let before = pending.len();
            let mut waiting = Vec::new();
            for (here, file, leaf) in pending {
                let segments = &leaf.segments;
                let absolute = match segments.first().map(String::as_str) {
                    Some("crate" | "super" | "self") => Some(absolute(&here, segments)),
                    Some(first) if self.children.get(&here).is_some_and(|c| c.contains(first)) => {
                        Some(Some(here.iter().chain(segments).cloned().collect()))
                    }
                    Some(first) => match self.bindings.get(&here).and_then(|b| b.get(first)) {
                        Some(Some(target)) => {
                            Some(Some(target.iter().chain(&segments[1..]).cloned().collect()))
                        }
                        Some(None) => Some(None),
                        None => None,
                    },
                    None => Some(None),
                };
                match absolute {
                    Some(absolute) => self.bind(&here, &file, leaf, absolute),
                    None => waiting.push((here, file, leaf)),
                }
            }
            pending = waiting;
            if pending.len() == before || pending.is_empty() {
                break;
            }
        }
        // What no module names is another crate's.
        for (here, file, leaf) in pending {
            self.bind(&here, &file, leaf, None);
        }
    }

    /// Binds the name of one `use` leaf of module `here`, and records the reference.
    fn bind(&mut self, here: &ModPath, file: &str, leaf: UseLeaf, absolute: Option<ModPath>) {
        if let Some(name) = &leaf.binding {
            self.bindings
                .entry(here.clone())
                .or_default()
                .insert(name.clone(), absolute.clone());
        }
        if let Some(absolute) = absolute {
            self.refer(here, file, leaf.line, leaf.segments.join("::"), absolute);
        }
    }

    /// Reads one file of `module`: its inline modules, `use` declarations, paths and
    /// exported macros. Returns the modules it declares with `mod name;` (relative to
    /// `module`, through its inline modules).
    fn read_file(&mut self, module: &ModPath, file: &str, tokens: &[Token]) -> Vec<ModPath> {
        let mut declared = Vec::new();
        self.children.entry(module.clone()).or_default();
        // The inline modules the reader is in, each with the brace depth it opened at.
        let mut inline: Vec<(String, usize)> = Vec::new();
        let mut depth = 0;
        // The bracket depth of the attribute being read, if one is.
        let mut attribute: Option<usize> = None;
        let mut i = 0;
        while i < tokens.len() {
            let here: ModPath = module
                .iter()
                .cloned()
                .chain(inline.iter().map(|(name, _)| name.clone()))
                .collect();
            match &tokens[i].kind {
                Kind::Punct('#') if matches!(peek(tokens, i + 1), Some(Kind::Punct('['))) => {
                    attribute.get_or_insert(depth);
                }
                Kind::Punct('#')
                    if matches!(peek(tokens, i + 1), Some(Kind::Punct('!')))
                        && matches!(peek(tokens, i + 2), Some(Kind::Punct('['))) =>
                {
                    attribute.get_or_insert(depth);
                }
                Kind::Punct('{' | '[' | '(') => depth += 1,
                Kind::Punct('}' | ']' | ')') => {
                    depth = depth.saturating_sub(1);
                    if attribute == Some(depth) {
                        attribute = None;
                    }
                    if inline.last().is_some_and(|(_, at)| *at == depth) {
                        inline.pop();
                    }
                }
                Kind::Str(text) if attribute.is_some() => {
                    if let Some(rest) = text.strip_prefix("crate::") {
                        let segments = rest.split("::").map(str::to_string).collect();
                        self.refer(&here, file, tokens[i].line, text.clone(), segments);
                    }
                }
                Kind::Ident(word) if word == "mod" => {
                    if let Some(Kind::Ident(name)) = peek(tokens, i + 1) {
                        match peek(tokens, i + 2) {
                            Some(Kind::Punct(';')) => {
                                let mut child = here[module.len()..].to_vec();
                                child.push(name.clone());
                                declared.push(child);
                                self.child(&here, name);
                                i += 3;
                                continue;
                            }
                            Some(Kind::Punct('{')) => {
                                self.child(&here, name);
                                inline.push((name.clone(), depth));
                                depth += 1;
                                i += 3;
                                continue;
                            }
                            _ => {}
                        }
                    }
                }
                Kind::Ident(word) if word == "use" => {
                    let mut leaves = Vec::new();
                    i = use_tree(tokens, i + 1, &mut Vec::new(), &mut leaves);
                    for leaf in leaves {
                        self.uses.push((here.clone(), file.to_string(), leaf));
                    }
                    continue;
                }
                Kind::Ident(word) if word == "macro_rules" => {
                    if let (Some(Kind::Punct('!')), Some(Kind::Ident(name))) =
                        (peek(tokens, i + 1), peek(tokens, i + 2))
                    {
                        // `#[macro_export]` macros are items of the crate root.
                        let mut path = here.clone();
                        path.push(name.clone());
                        self.bindings
                            .entry(Vec::new())
                            .or_default()
                            .insert(name.clone(), Some(path));
                    }
                }
                // A macro whose tokens are the code it writes elsewhere (the generator's).
                Kind::Ident(word)
                    if matches!(word.as_str(), "quote" | "quote_spanned" | "parse_quote")
                        && matches!(peek(tokens, i + 1), Some(Kind::Punct('!'))) =>
                {
                    i = skip_group(tokens, i + 2);
                    continue;
                }
                Kind::Ident(word) if (word == "crate" || word == "super") && is_path(tokens, i) => {
                    let (segments, next) = path_at(tokens, i);
                    let line = tokens[i].line;
                    let written = segments.join("::");
                    if let Some(absolute) = absolute(&here, &segments) {
                        self.refer(&here, file, line, written, absolute);
                    }
                    i = next;
                    continue;
                }
                _ => {}
            }
            i += 1;
        }
        declared
    }

    fn child(&mut self, parent: &ModPath, name: &str) {
        self.children
            .entry(parent.clone())
            .or_default()
            .insert(name.to_string());
        let mut path = parent.clone();
        path.push(name.to_string());
        self.children.entry(path).or_default();
    }

    fn refer(
        &mut self,
        here: &ModPath,
        file: &str,
        line: usize,
        written: String,
        absolute: ModPath,
    ) {
        self.references.push(Reference {
            from: here.clone(),
            file: file.to_string(),
            line,
            written,
            absolute,
        });
    }

    /// The module defining the item `path` names (or the module it names), following the
    /// names modules bring in with `use`; `None` outside the crate.
    fn resolve(&self, path: &[String]) -> Option<ModPath> {
        let mut path = path.to_vec();
        // Re-exports lead to definitions in a few steps; a loop of them does not compile.
        for _ in 0..32 {
            let mut module: ModPath = Vec::new();
            let mut rest = None;
            for (i, segment) in path.iter().enumerate() {
                if self
                    .children
                    .get(&module)
                    .is_some_and(|c| c.contains(segment))
                {
                    module.push(segment.clone());
                    continue;
                }
                match self.bindings.get(&module).and_then(|b| b.get(segment)) {
                    Some(Some(target)) if *target != path[..=i] => {
                        rest = Some(target.iter().chain(&path[i + 1..]).cloned().collect());
                    }
                    Some(None) => return None,
                    _ => {}
                }
                break;
            }
            match rest {
                Some(next) => path = next,
                None => return Some(module),
            }
        }
        None
    }

    /// The import cycles among the child modules of `parent` (the top-level modules when
    /// it is empty): for each module in a cycle, the shortest cycle through it, each told
    /// once, with the first path of each import.
    pub(super) fn cycles(&self, parent: &[String]) -> Vec<String> {
        let depth = parent.len();
        let child_of = |path: &ModPath| -> Option<String> {
            (path.len() > depth && path[..depth] == *parent).then(|| path[depth].clone())
        };
        // Each import between two children, with the first reference making it.
        let mut edges: BTreeMap<(String, String), (&Reference, ModPath)> = BTreeMap::new();
        for reference in &self.references {
            let Some(from) = child_of(&reference.from) else {
                continue;
            };
            let Some(target) = self.resolve(&reference.absolute) else {
                continue;
            };
            let Some(to) = child_of(&target) else {
                continue;
            };
            if from != to {
                let first = edges
                    .entry((from, to))
                    .or_insert((reference, target.clone()));
                if (reference.file.as_str(), reference.line) < (first.0.file.as_str(), first.0.line)
                {
                    *first = (reference, target);
                }
            }
        }
        let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (from, to) in edges.keys() {
            next.entry(from).or_default().push(to);
        }
        let mut told = BTreeSet::new();
        let mut out = Vec::new();
        for start in next.keys().copied() {
            let Some(cycle) = shortest_cycle(&next, start) else {
                continue;
            };
            // The same cycle read from its smallest module.
            let at = (0..cycle.len()).min_by_key(|&i| cycle[i]).unwrap_or(0);
            let mut canonical = cycle[at..].to_vec();
            canonical.extend_from_slice(&cycle[..at]);
            if !told.insert(canonical.clone()) {
                continue;
            }
            let mut names: Vec<&str> = canonical.clone();
            names.push(canonical[0]);
            let why: Vec<String> = names
                .windows(2)
                .map(|pair| {
                    let (reference, target) = &edges[&(pair[0].to_string(), pair[1].to_string())];
                    let mut text = format!(
                        "{}:{} uses {}",
                        reference.file, reference.line, reference.written
                    );
                    let named = reference.absolute.get(depth).map(String::as_str);
                    if named != Some(pair[1]) || reference.absolute.get(..depth) != Some(parent) {
                        text.push_str(&format!(", defined in {}", target.join("::")));
                    }
                    text
                })
                .collect();
            let level = if parent.is_empty() {
                String::new()
            } else {
                format!(" in {}", parent.join("::"))
            };
            out.push(format!(
                "import cycle{level} {} ({})",
                names.join(" -> "),
                why.join("; ")
            ));
        }
        out
    }
}

/// The shortest cycle from `start` back to it in the graph `next`, without `start` at its end.
fn shortest_cycle<'a>(
    next: &BTreeMap<&'a str, Vec<&'a str>>,
    start: &'a str,
) -> Option<Vec<&'a str>> {
    let mut came_from: BTreeMap<&str, &str> = BTreeMap::new();
    let mut queue = VecDeque::from([start]);
    while let Some(node) = queue.pop_front() {
        for &to in next.get(node).into_iter().flatten() {
            if to == start {
                let mut cycle = vec![node];
                let mut at = node;
                while at != start {
                    at = came_from[at];
                    cycle.push(at);
                }
                cycle.reverse();
                return Some(cycle);
            }
            if !came_from.contains_key(to) {
                came_from.insert(to, node);
                queue.push_back(to);
            }
        }
    }
    None
}

/// `segments` (starting with `crate`, `super` or `self`), written in module `here`, from the
/// crate root; `None` when it climbs above the root.
fn absolute(here: &ModPath, segments: &[String]) -> Option<ModPath> {
    let mut module = here.clone();
    let mut rest = segments;
    match rest.first().map(String::as_str) {
        Some("crate") => {
            module.clear();
            rest = &rest[1..];
        }
        Some("self") => rest = &rest[1..],
        _ => {}
    }
    while rest.first().is_some_and(|s| s == "super") {
        module.pop()?;
        rest = &rest[1..];
    }
    module.extend(rest.iter().cloned());
    Some(module)
}
