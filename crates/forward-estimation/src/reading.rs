//! [`Reading`]: how the paper's pruning conditions are applied.

/// Two readings of *when* Zhang's conditions apply. The paper states condition (1) for "a MIN node"
/// and "a MAX node" with "d the depth of the subtree", and then says its searches return α/β's
/// results with fewer nodes; Table 1 shows *what* they generate, and only one reading found so far
/// generates that: FE equal to α/β at search depth 2, and within 0.7 % of the paper's FE/α-β node
/// ratio at every depth from 2 to 10 over 1000 trees (`docs/reproductions.md` in the repository
/// has the table). The literal reading is the default because it is what the text states.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Reading {
    /// Condition (1) on every child, whatever its depth: a MIN child with `c + u·d ≤ α` and a MAX
    /// child with `c + l·d ≥ β` are skipped. The words of the paper, and the default: it is the
    /// statement the paper proves α/β's value for.
    #[default]
    Literal,
    /// Condition (1) only on children with at least two plies below them (`d ≥ 2`), and a **node
    /// cut**: a node is abandoned as soon as one child's estimated range settles it (at a MIN node,
    /// a child with `c + u·d ≤ α`; at a MAX node, a child with `c + l·d ≥ β`), the paper's own α/β
    /// cut applied to estimated child values. The reading that reproduces the paper's Table 1. With
    /// exact bounds and δ = 1 it too returns α/β's value: a node cut happens only when the child's
    /// true value already fails high.
    NodeCut,
}

impl Reading {
    /// `literal` or `node-cut`.
    pub fn name(&self) -> &'static str {
        match self {
            Reading::Literal => "literal",
            Reading::NodeCut => "node-cut",
        }
    }
}
