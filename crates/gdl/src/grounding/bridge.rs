//! Bridges: the rules of a game's outputs rewritten around relations too large to ground.
//!
//! Some relations have more atoms than any ground program can hold, though a state makes only a
//! few of them true: GGP Base's chess asks whether a square is threatened *ignoring* another
//! square (the one a move vacates), for every attacker square, king square and vacated square.
//! Such a relation is *deferred*: left out of the ground program, with every relation that reads
//! it (except the outputs `legal`, `next`, `goal`, `terminal`, `sees`, whose atoms the reasoner
//! must report). A rule of an output that reads a deferred relation is split in three:
//!
//! ```text
//! (<= H  rest…  bucket…)    becomes     (<= H  rest…  (__bridgeN V…))
//!                                        (<= (__askN V…)  rest…)
//!                                        (<= (__bridgeN V…)  (__askN V…)  bucket…)
//! ```
//!
//! The *bucket* holds the literals that read a deferred relation and, as in variable elimination
//! ([`crate::grounding::decompose`]), every literal that shares a variable with it that neither
//! the head nor a `does` literal has: in chess's "the king is not left in check" rules, the
//! king's piece and square join only the threat, so they go with it and never multiply the
//! ground rules. The bridge's arguments `V` are the variables the bucket shares with the rest.
//!
//! The rest is grounded. The *ask* relation `__askN` holds the bridge atoms a state can use
//! (those whose rule's other literals hold; a literal of a relation that itself reads a bridge is
//! left out of the ask, which then asks for more); a ground program computes the asks, someone
//! evaluates the bridges for exactly those (goal-directed, over the state's fluents: chess asks
//! whether the king is safe for each piece that can move, not for every square), and the program
//! reads the bridges' atoms as inputs.
//!
//! A bridge is safe given its ask (a variable of the bucket is in `V` or bound by one of the
//! bucket's positive literals: in the rule as written a positive literal binds it, and one outside
//! the bucket would share it). The ask must be safe too: a variable of `V` that only a literal
//! of the bucket binds (only the deferred relation knows its values) leaves the rule unbridged
//! ([`BridgeError`]).
//!
//! The rewriting keeps the model: the rest implies the ask, so `H ⇔ rest ∧ ∃…: bucket`. The
//! reference reasoner evaluating the bridged program gives the answers of the description as
//! written (`the_bridged_program_answers_as_the_description_does`).

use crate::description::{Keywords, Literal, Rule};
use crate::grounding::decompose::literal_vars;
use crate::syntax::term::{Sym, TermId, Terms};
use game_trait::hash::{FastMap, FastSet};

/// A description's rules bridged around its deferred relations (see the [module docs](self)).
#[derive(Clone, Debug, Default)]
pub struct Bridged {
    /// Every rule of a relation that is not deferred (those that read a deferred relation
    /// rewritten to read their bridge), then every rule of a deferred relation, then the bridges'
    /// rules, then the asks': a program with the description's model on its relations.
    pub rules: Vec<Rule>,
    /// Per rule of `rules`: the index of the description's rule it comes from.
    pub origin: Vec<usize>,
    /// The bridges: each one's relation, arity, and ask relation.
    pub bridges: Vec<Bridge>,
    /// The deferred relations: the ones asked for and every relation other than an output that
    /// reads one of them.
    pub deferred: FastSet<Sym>,
    /// The deferred relations and those only they and the bridges read: what neither domain
    /// analysis nor grounding needs.
    pub left_out: FastSet<Sym>,
}

/// One bridge of a [`Bridged`] program.
#[derive(Clone, Debug)]
pub struct Bridge {
    /// The bridge relation `__bridgeN`.
    pub relation: Sym,
    /// Its arity (the number of variables in `V`).
    pub arity: usize,
    /// Its ask relation `__askN`, of the same arity.
    pub ask: Sym,
    /// Whether it depends on the joint move (its rule reads `does`, or its bucket reads a
    /// relation that does): it is asked for with each successor, not with each view.
    pub moved: bool,
    /// A rule whose relaxed model (see [`crate::grounding`]) holds every atom the bridge can
    /// have: `(<= (__bridgeN V…) (__askN V…))`. Domain analysis evaluates it in place of the
    /// bridge's rule.
    pub domain: Rule,
}

/// Why a rule cannot be bridged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{rule}: {reason}")]
pub struct BridgeError {
    /// The rule, as written.
    pub rule: String,
    /// What stands in the way.
    pub reason: &'static str,
}

/// The relations `roots` and every relation other than an output (`legal`, `next`, `goal`,
/// `terminal`, `sees`) whose rules read one of them, transitively.
pub fn deferred_closure(
    terms: &Terms,
    rules: &[Rule],
    kw: &Keywords,
    roots: impl IntoIterator<Item = Sym>,
) -> FastSet<Sym> {
    let outputs = [kw.legal, kw.next, kw.goal, kw.terminal, kw.sees];
    let mut deferred: FastSet<Sym> = roots.into_iter().collect();
    readers_closure(terms, rules, &mut deferred, |h| !outputs.contains(&h));
    deferred
}

/// Adds to `rels` every relation that `admit` accepts and whose rules read one of them,
/// transitively.
fn readers_closure(
    terms: &Terms,
    rules: &[Rule],
    rels: &mut FastSet<Sym>,
    admit: impl Fn(Sym) -> bool,
) {
    loop {
        let before = rels.len();
        for rule in rules {
            let Some((head, _)) = terms.functor(rule.head) else {
                continue;
            };
            if admit(head) && !rels.contains(&head) && reads(terms, rule, rels) {
                rels.insert(head);
            }
        }
        if rels.len() == before {
            return;
        }
    }
}

/// A rule split around a bucket, before its ask is made.
struct Split {
    relation: Sym,
    outer: Rule,
    bucket: Vec<Literal>,
    args: Vec<TermId>,
    origin: usize,
}

/// Bridges `rules` around the relations `deferred` (closed under [`deferred_closure`]).
pub fn bridge(
    terms: &mut Terms,
    rules: &[Rule],
    kw: &Keywords,
    deferred: FastSet<Sym>,
) -> Result<Bridged, BridgeError> {
    let mut out = Bridged::default();
    let mut splits: Vec<Split> = Vec::new();
    let mut deferred_rules: Vec<(Rule, usize)> = Vec::new();
    for (i, rule) in rules.iter().enumerate() {
        let head = terms.functor(rule.head).map(|(f, _)| f);
        if head.is_some_and(|h| deferred.contains(&h)) {
            deferred_rules.push((rule.clone(), i));
        } else if reads(terms, rule, &deferred) {
            let name = terms.sym(&format!("__bridge{}", splits.len()));
            let split = split(terms, rule, kw, &deferred, name, i)?;
            out.rules.push(split.outer.clone());
            out.origin.push(i);
            splits.push(split);
        } else {
            out.rules.push(rule.clone());
            out.origin.push(i);
        }
    }
    for (rule, i) in deferred_rules {
        out.rules.push(rule);
        out.origin.push(i);
    }
    // The relations that read a bridge: an ask leaves their literals out.
    let mut bridged: FastSet<Sym> = splits
        .iter()
        .filter_map(|s| terms.functor(s.outer.head).map(|(f, _)| f))
        .collect();
    readers_closure(terms, &out.rules, &mut bridged, |_| true);
    // The relations that read the move: a bridge whose bucket reads one is asked per successor.
    let mut moved: FastSet<Sym> = [kw.does].into_iter().collect();
    readers_closure(terms, rules, &mut moved, |_| true);
    let mut asks = Vec::new();
    for (n, split) in splits.into_iter().enumerate() {
        let reads_move = split.bucket.iter().any(|l| reads_literal(terms, l, &moved));
        let (mut bridge, bridge_rule, ask_rule) = finish(terms, kw, split, n, &bridged)?;
        bridge.moved |= reads_move;
        out.rules.push(bridge_rule);
        out.origin.push(ask_rule.1);
        asks.push(ask_rule);
        out.bridges.push(bridge);
    }
    for (rule, i) in asks {
        out.rules.push(rule);
        out.origin.push(i);
    }
    out.left_out = left_out(terms, kw, &out, &deferred);
    out.deferred = deferred;
    Ok(out)
}

/// The bridge, its rule and its ask's rule (with the index of the rule they come from).
fn finish(
    terms: &mut Terms,
    kw: &Keywords,
    split: Split,
    n: usize,
    bridged: &FastSet<Sym>,
) -> Result<(Bridge, Rule, (Rule, usize)), BridgeError> {
    let Split {
        relation,
        outer,
        bucket,
        args,
        origin,
    } = split;
    let fail = |reason| BridgeError {
        rule: outer.text.clone(),
        reason,
    };
    let ask = terms.sym(&format!("__ask{n}"));
    let ask_atom = terms.app(ask, &args);
    let rest = &outer.body[..outer.body.len() - 1];
    let ask_body: Vec<Literal> = (rest.iter())
        .filter(|l| !reads_literal(terms, l, bridged))
        .copied()
        .collect();
    if !safe(terms, ask_atom, &ask_body) {
        return Err(fail(
            "its literals that read no bridge do not bind the bridge's variables",
        ));
    }
    let moved = ask_body.iter().any(|l| is_does(terms, kw, l));
    terms.set_var_names(&outer.var_names);
    let make = |head, body: Vec<Literal>, terms: &Terms| Rule {
        text: crate::description::rule_text(terms, head, &body),
        head,
        body,
        ..outer.clone()
    };
    let bridge_atom = terms.app(relation, &args);
    let mut bridge_body = vec![Literal::Pos(ask_atom)];
    bridge_body.extend(bucket);
    let bridge_rule = make(bridge_atom, bridge_body, terms);
    let domain = make(bridge_atom, vec![Literal::Pos(ask_atom)], terms);
    let ask_rule = make(ask_atom, ask_body, terms);
    let bridge = Bridge {
        relation,
        arity: args.len(),
        ask,
        moved,
        domain,
    };
    Ok((bridge, bridge_rule, (ask_rule, origin)))
}

/// Whether every variable of `head` and of `body`'s negated and `distinct` literals is bound by
/// one of `body`'s positive literals.
fn safe(terms: &Terms, head: TermId, body: &[Literal]) -> bool {
    let mut bound = Vec::new();
    let mut needed = Vec::new();
    terms.vars_of(head, &mut needed);
    for l in body {
        match l {
            Literal::Pos(_) => bound.extend(literal_vars(terms, l)),
            _ => needed.extend(literal_vars(terms, l)),
        }
    }
    needed.iter().all(|v| bound.contains(v))
}

/// Whether a positive or negated literal of `rule`'s body reads one of the relations `rels`.
fn reads(terms: &Terms, rule: &Rule, rels: &FastSet<Sym>) -> bool {
    rule.body.iter().any(|l| reads_literal(terms, l, rels))
}

fn reads_literal(terms: &Terms, lit: &Literal, rels: &FastSet<Sym>) -> bool {
    match *lit {
        Literal::Pos(a) | Literal::Neg(a) => {
            terms.functor(a).is_some_and(|(f, _)| rels.contains(&f))
        }
        Literal::Distinct(..) | Literal::Same(..) => false,
    }
}

fn is_does(terms: &Terms, kw: &Keywords, l: &Literal) -> bool {
    match *l {
        Literal::Pos(a) => terms.functor(a).is_some_and(|(f, _)| f == kw.does),
        _ => false,
    }
}

/// Splits `rule` (the description's rule `origin`) around its bucket: the outer rule (the rest,
/// then the bridge atom `name(V…)`), the bucket and `V`.
fn split(
    terms: &mut Terms,
    rule: &Rule,
    kw: &Keywords,
    deferred: &FastSet<Sym>,
    name: Sym,
    origin: usize,
) -> Result<Split, BridgeError> {
    let lit_vars: Vec<Vec<u32>> = rule.body.iter().map(|l| literal_vars(terms, l)).collect();
    let mut kept = Vec::new(); // variables the bucket must not eliminate
    terms.vars_of(rule.head, &mut kept);
    for (l, vars) in rule.body.iter().zip(&lit_vars) {
        if is_does(terms, kw, l) {
            kept.extend(vars);
        }
    }
    let mut in_bucket: Vec<bool> = (rule.body.iter())
        .map(|l| reads_literal(terms, l, deferred))
        .collect();
    // Pull in every literal (but `does`) sharing a variable with the bucket that nothing kept
    // has, until the bucket shares only kept variables with the rest.
    loop {
        let inside: Vec<u32> = (lit_vars.iter().zip(&in_bucket))
            .filter(|(_, &b)| b)
            .flat_map(|(v, _)| v.iter().copied())
            .collect();
        let mut grew = false;
        for (k, vars) in lit_vars.iter().enumerate() {
            let eliminated = |v: &u32| inside.contains(v) && !kept.contains(v);
            if !in_bucket[k] && !is_does(terms, kw, &rule.body[k]) && vars.iter().any(eliminated) {
                in_bucket[k] = true;
                grew = true;
            }
        }
        if !grew {
            break;
        }
    }
    let pick = |side: bool| -> Vec<Literal> {
        (rule.body.iter().zip(&in_bucket))
            .filter(|(_, &b)| b == side)
            .map(|(l, _)| *l)
            .collect()
    };
    let (bucket, mut rest) = (pick(true), pick(false));
    let mut outside = kept.clone();
    for l in &rest {
        outside.extend(literal_vars(terms, l));
    }
    let mut args: Vec<u32> = (bucket.iter())
        .flat_map(|l| literal_vars(terms, l))
        .filter(|v| outside.contains(v))
        .collect();
    args.sort_unstable();
    args.dedup();
    let arg_terms: Vec<TermId> = args.iter().map(|&v| terms.var(v)).collect();
    // The bridge is safe given its ask: a variable of the bucket is in `V` or, bound in the
    // rule as written, bound by a positive literal of the bucket (one outside would share it).
    let atom = terms.app(name, &arg_terms);
    rest.push(Literal::Pos(atom));
    terms.set_var_names(&rule.var_names);
    let outer = Rule {
        text: crate::description::rule_text(terms, rule.head, &rest),
        head: rule.head,
        body: rest,
        ..rule.clone()
    };
    Ok(Split {
        relation: name,
        outer,
        bucket,
        args: arg_terms,
        origin,
    })
}

/// Every relation of `bridged`'s rules that the outputs (and `init`) and the asks do not read,
/// directly or through other relations, but through a deferred relation or a bridge's rule (a
/// bridge's domain rule stands for it).
fn left_out(
    terms: &Terms,
    kw: &Keywords,
    bridged: &Bridged,
    deferred: &FastSet<Sym>,
) -> FastSet<Sym> {
    let head = |r: &Rule| terms.functor(r.head).map(|(f, _)| f);
    let bridges: FastSet<Sym> = bridged.bridges.iter().map(|b| b.relation).collect();
    let mut bodies: FastMap<Sym, Vec<&Rule>> = FastMap::default();
    let mut all: FastSet<Sym> = FastSet::default();
    for rule in &bridged.rules {
        let Some(h) = head(rule) else { continue };
        all.insert(h);
        if !deferred.contains(&h) && !bridges.contains(&h) {
            bodies.entry(h).or_default().push(rule);
        }
    }
    for b in &bridged.bridges {
        bodies.insert(b.relation, vec![&b.domain]);
    }
    let mut needed: FastSet<Sym> = FastSet::default();
    let mut stack = vec![
        kw.init,
        kw.role,
        kw.legal,
        kw.next,
        kw.goal,
        kw.terminal,
        kw.sees,
    ];
    stack.extend(bridged.bridges.iter().map(|b| b.ask));
    while let Some(rel) = stack.pop() {
        if !needed.insert(rel) {
            continue;
        }
        for rule in bodies.get(&rel).into_iter().flatten() {
            for lit in &rule.body {
                if let Literal::Pos(a) | Literal::Neg(a) = *lit {
                    stack.extend(terms.functor(a).map(|(f, _)| f));
                }
            }
        }
    }
    all.retain(|r| !needed.contains(r));
    all
}

#[cfg(test)]
mod tests {
    use rand::{Rng, SeedableRng};

    use super::*;
    use crate::datalog::Budget;
    use crate::description::{load, Description};
    use crate::game::fluents::FluentSet;
    use crate::reference::Kb;
    use crate::syntax::term::{Node, TermId};

    fn description(file: &str) -> Description {
        let path = format!("{}/games/{file}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap();
        load(&text, file).unwrap()
    }

    /// `t` of `from`'s arena, interned in `to`'s.
    fn copy(from: &Terms, to: &mut Terms, t: TermId) -> TermId {
        match from.node(t) {
            Node::Var(v) => to.var(v),
            Node::Const(s) => {
                let s = to_sym(from, to, s);
                to.constant(s)
            }
            Node::App(f, args) => {
                let args: Vec<TermId> = args.iter().map(|&a| copy(from, to, a)).collect();
                let f = to_sym(from, to, f);
                to.app(f, &args)
            }
        }
    }

    fn to_sym(from: &Terms, to: &mut Terms, s: Sym) -> Sym {
        let name = from.name(s).to_string();
        to.sym(&name)
    }

    /// The state of `from` as a state of `to`.
    fn translate(from: &Kb, to: &mut Kb, state: &FluentSet) -> FluentSet {
        let mut out = FluentSet::new();
        for id in state.iter() {
            let f = copy(
                &from.desc.terms,
                &mut to.desc.terms,
                from.fluents[id as usize],
            );
            out.insert(to.fluent_id(f));
        }
        out
    }

    fn move_names(kb: &Kb, ids: &[u32]) -> Vec<String> {
        let mut names: Vec<String> = (ids.iter())
            .map(|&m| kb.desc.terms.show(kb.moves[m as usize]))
            .collect();
        names.sort();
        names
    }

    fn fluent_names(kb: &Kb, state: &FluentSet) -> Vec<String> {
        let mut names: Vec<String> = (state.iter())
            .map(|f| kb.desc.terms.show(kb.fluents[f as usize]))
            .collect();
        names.sort();
        names
    }

    fn reasoner(desc: Description) -> Kb {
        let mut kb = Kb::new(desc, &mut Budget::unlimited(), usize::MAX).unwrap();
        kb.enable_demand();
        kb
    }

    /// Plays `playouts` seeded random games of at most `plies` plies of `file` on the reference
    /// reasoner, with the description as written and bridged around `roots`, comparing legal
    /// moves, terminal, goals, percepts and successors by name at every state; the number of
    /// bridges, or why the description cannot be bridged around `roots`.
    fn agree(
        file: &str,
        roots: &[&str],
        playouts: u64,
        plies: usize,
    ) -> Result<usize, BridgeError> {
        let desc = description(file);
        let mut bridged = desc.clone();
        let syms: Vec<Sym> = roots.iter().map(|r| bridged.terms.sym(r)).collect();
        let deferred = deferred_closure(&bridged.terms, &desc.rules, &desc.kw, syms);
        let out = bridge(&mut bridged.terms, &desc.rules, &desc.kw, deferred)?;
        let bridges = out.bridges.len();
        bridged.rules = out.rules;
        let (mut plain, mut split) = (reasoner(desc), reasoner(bridged));
        let roles = plain.roles.len();
        for seed in 0..playouts {
            let mut rng = rand_pcg::Pcg64::seed_from_u64(seed);
            let mut state = plain.initial();
            for ply in 0..=plies {
                let at = format!("{file}, bridged around {roots:?}, game {seed}, ply {ply}");
                let other = translate(&plain, &mut split, &state);
                let (view, other_view) = (plain.view(&state), split.view(&other));
                assert_eq!(view.terminal, other_view.terminal, "{at}: terminal");
                assert_eq!(plain.goals(&state), split.goals(&other), "{at}: goals");
                for r in 0..roles {
                    let (mine, theirs) = (&view.legal[r], &other_view.legal[r]);
                    let names = move_names(&plain, mine);
                    assert_eq!(names, move_names(&split, theirs), "{at}: legal, role {r}");
                }
                if view.terminal || ply == plies {
                    break;
                }
                let joint: Vec<u32> = (view.legal.iter())
                    .map(|l| l[rng.gen_range(0..l.len())])
                    .collect();
                let other_joint: Vec<u32> = joint
                    .iter()
                    .map(|&m| {
                        let t = copy(
                            &plain.desc.terms,
                            &mut split.desc.terms,
                            plain.moves[m as usize],
                        );
                        split.move_id(t)
                    })
                    .collect();
                let show = |kb: &Kb, seen: Vec<(usize, TermId)>| -> Vec<(usize, String)> {
                    let mut v: Vec<_> = seen
                        .into_iter()
                        .map(|(r, p)| (r, kb.desc.terms.show(p)))
                        .collect();
                    v.sort();
                    v
                };
                let seen = plain.sees(&state, &joint);
                let other_seen = split.sees(&other, &other_joint);
                assert_eq!(show(&plain, seen), show(&split, other_seen), "{at}: sees");
                let next = plain.next(&state, &joint);
                let other_next = split.next(&other, &other_joint);
                assert_eq!(
                    fluent_names(&plain, &next),
                    fluent_names(&split, &other_next),
                    "{at}: next"
                );
                state = next;
            }
        }
        Ok(bridges)
    }

    /// The texts of `text`'s rules bridged around `roots`.
    fn bridged(text: &str, roots: &[&str]) -> Result<Vec<String>, BridgeError> {
        let mut d = load(text, "test.kif").unwrap();
        let roots: Vec<Sym> = roots.iter().map(|r| d.terms.sym(r)).collect();
        let deferred = deferred_closure(&d.terms, &d.rules, &d.kw, roots);
        let out = bridge(&mut d.terms, &d.rules, &d.kw, deferred)?;
        Ok(out.rules.iter().map(|r| r.text.clone()).collect())
    }

    const RULES: &str = "
        (role a) (init (at 1)) (init (king 2)) (big 2 1) (index 1) (index 2)
        (<= (legal a (go ?x ?y)) (true (at ?x)) (index ?y) (true (king ?k)) (not (big ?k ?y)))
        (<= (wide ?x) (big ?x ?y) (true (at ?x)))
        (<= (next (at ?x)) (does a (go ?x ?y)) (not (blocked ?y)) (wide ?x))
        (<= (next (king ?k)) (true (king ?k)))
        (<= (blocked ?y) (true (at ?y)))
        (<= terminal (true (at 2))) (goal a 100)
    ";

    #[test]
    fn a_bucket_takes_the_deferred_literals_and_what_only_they_join_on() {
        let rules = bridged(RULES, &["big"]).unwrap();
        let has = |text: &str| assert!(rules.contains(&text.to_string()), "{text}: {rules:?}");
        // The king's square joins only the deferred literal: it goes into the bucket, and the
        // bridge keeps the move's target, which the head has.
        has("(<= (legal a (go ?x ?y)) (true (at ?x)) (index ?y) (__bridge0 ?y))");
        has("(<= (__bridge0 ?y) (__ask0 ?y) (true (king ?k)) (not (big ?k ?y)))");
        has("(<= (__ask0 ?y) (true (at ?x)) (index ?y))");
        // `wide` reads `big`: deferred with it. `?y` is the move's: it stays outside.
        has("(<= (next (at ?x)) (does a (go ?x ?y)) (not (blocked ?y)) (__bridge1 ?x))");
        has("(<= (__bridge1 ?x) (__ask1 ?x) (wide ?x))");
        has("(<= (__ask1 ?x) (does a (go ?x ?y)) (not (blocked ?y)))");
        assert_eq!(rules.len(), 17, "{rules:?}");
    }

    #[test]
    fn a_bridge_variable_only_a_deferred_relation_binds_cannot_be_asked_for() {
        let text = RULES.replace(
            "(index ?y) (true (king ?k)) (not (big ?k ?y))",
            "(big ?y ?x)",
        );
        let err = bridged(&text, &["big"]).unwrap_err();
        assert!(err.rule.starts_with("(<= (legal a"), "{err}");
        assert!(err.reason.contains("do not bind"), "{err}");
    }

    #[test]
    fn the_bridged_program_answers_as_the_description_does() {
        // Chess's threat family: `legal` and `next (check …)` read it, through `threatened`,
        // `threatened_with_capture` and the `*_threatens` relations.
        let threats = ["queen_threatens", "rook_threatens", "bishop_threatens"];
        assert_eq!(agree("chess.kif", &threats, 2, 30), Ok(15));
    }

    #[test]
    fn bridging_around_any_one_relation_changes_no_answer() {
        for (file, playouts) in [
            ("tictactoe.kif", 20),
            ("connect4.kif", 4),
            ("kaseklau.kif", 4),
            ("orchard.kif", 4),
            ("tron.kif", 4),
            ("dice_duel.kif", 4),
            ("breakthrough.kif", 2),
        ] {
            let desc = description(file);
            let kw = desc.kw;
            let keywords = [
                kw.role,
                kw.init,
                kw.true_,
                kw.does,
                kw.legal,
                kw.next,
                kw.goal,
                kw.terminal,
                kw.sees,
            ];
            let mut relations: Vec<String> = (desc.rules.iter())
                .filter_map(|r| desc.terms.functor(r.head))
                .filter(|(f, _)| !keywords.contains(f))
                .map(|(f, _)| desc.terms.name(f).to_string())
                .collect();
            relations.sort();
            relations.dedup();
            let mut bridged = 0;
            for relation in &relations {
                bridged += agree(file, &[relation.as_str()], playouts, 200).map_or(0, |_| 1);
            }
            assert!(bridged > 0, "{file}: no relation of {relations:?} bridges");
        }
    }
}
