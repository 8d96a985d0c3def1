//! Cones: the fluents and moves that derived atoms of a ground program depend on, through
//! positive and negative literals alike. An atom's truth in a state under a joint move is a
//! function of its cone's fluents and `does` atoms only, which is what lets the round encoding
//! ([`crate::round`]) state each rule of the game as a table over a few variables.

use crate::grounding::{GroundProgram, INDEX, KIND, KIND_DERIVED, KIND_DOES, KIND_FLUENT};

/// What a set of derived atoms depends on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct Cone {
    /// Fluent ids, sorted.
    pub(crate) fluents: Vec<u32>,
    /// `does` ids ([`GroundProgram::does`]), sorted.
    pub(crate) does: Vec<u32>,
}

/// Computes cones over one ground program.
pub(crate) struct Cones<'a> {
    g: &'a GroundProgram,
    /// The rules of each head slot.
    rules_of: Vec<Vec<u32>>,
    /// The walk that last visited each slot, so that no walk clears a visited set.
    seen: Vec<u32>,
    walk: u32,
}

impl<'a> Cones<'a> {
    /// Indexes `g`'s rules by head.
    pub(crate) fn new(g: &'a GroundProgram) -> Cones<'a> {
        let mut rules_of = vec![Vec::new(); g.atoms.len()];
        for (i, &h) in g.heads.iter().enumerate() {
            rules_of[h as usize].push(i as u32);
        }
        Cones {
            g,
            seen: vec![0; g.atoms.len()],
            rules_of,
            walk: 0,
        }
    }

    /// The cone of the derived atoms in `slots`: every fluent and `does` atom some rule below
    /// them reads.
    pub(crate) fn of(&mut self, slots: impl IntoIterator<Item = u32>) -> Cone {
        self.walk += 1;
        let mut cone = Cone::default();
        let mut stack: Vec<u32> = Vec::new();
        for s in slots {
            self.visit(s, &mut stack);
        }
        while let Some(slot) = stack.pop() {
            for &rule in &self.rules_of[slot as usize] {
                for &lit in self.g.body(rule as usize) {
                    let index = lit & INDEX;
                    match lit & KIND {
                        KIND_FLUENT => cone.fluents.push(index),
                        KIND_DOES => cone.does.push(index),
                        KIND_DERIVED if self.seen[index as usize] != self.walk => {
                            self.seen[index as usize] = self.walk;
                            stack.push(index);
                        }
                        _ => {}
                    }
                }
            }
        }
        for v in [&mut cone.fluents, &mut cone.does] {
            v.sort_unstable();
            v.dedup();
        }
        cone
    }

    fn visit(&mut self, slot: u32, stack: &mut Vec<u32>) {
        if self.seen[slot as usize] != self.walk {
            self.seen[slot as usize] = self.walk;
            stack.push(slot);
        }
    }
}
