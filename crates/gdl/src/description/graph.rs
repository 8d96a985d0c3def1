//! Strongly connected components (Tarjan), iterative so that long rule chains cannot overflow the
//! stack. Used for stratification (over relations) and for ordering ground rules (over atoms).

/// The strongly connected components of the graph `edges` (`edges[v]` lists the successors of `v`),
/// each listed after every component it can reach: with edges pointing from a rule's head to its
/// body, dependencies come first.
pub fn sccs(edges: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const UNSEEN: usize = usize::MAX;
    let n = edges.len();
    let mut index = vec![UNSEEN; n];
    let mut low = vec![0; n];
    let mut on_stack = vec![false; n];
    let mut stack = Vec::new();
    let mut out = Vec::new();
    let mut next = 0;
    // Explicit call stack: (vertex, position in its successor list).
    let mut calls: Vec<(usize, usize)> = Vec::new();
    for root in 0..n {
        if index[root] != UNSEEN {
            continue;
        }
        calls.push((root, 0));
        index[root] = next;
        low[root] = next;
        next += 1;
        stack.push(root);
        on_stack[root] = true;
        while let Some(&mut (v, ref mut i)) = calls.last_mut() {
            if let Some(&w) = edges[v].get(*i) {
                *i += 1;
                if index[w] == UNSEEN {
                    index[w] = next;
                    low[w] = next;
                    next += 1;
                    stack.push(w);
                    on_stack[w] = true;
                    calls.push((w, 0));
                } else if on_stack[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            calls.pop();
            if let Some(&(parent, _)) = calls.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut component = Vec::new();
                while let Some(w) = stack.pop() {
                    on_stack[w] = false;
                    component.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(component);
            }
        }
    }
    out
}

/// A shortest path from `from` to `to` following `edges` (both ends included), if any.
pub fn path(edges: &[Vec<usize>], from: usize, to: usize) -> Option<Vec<usize>> {
    let mut parent = vec![usize::MAX; edges.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    parent[from] = from;
    while let Some(v) = queue.pop_front() {
        if v == to {
            let mut p = vec![to];
            let mut cur = to;
            while cur != from {
                cur = parent[cur];
                p.push(cur);
            }
            p.reverse();
            return Some(p);
        }
        for &w in &edges[v] {
            if parent[w] == usize::MAX {
                parent[w] = v;
                queue.push_back(w);
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn components_come_after_what_they_reach() {
        // 0 -> 1 -> 2 -> 1, 3 isolated
        let g = vec![vec![1], vec![2], vec![1], vec![]];
        let c = sccs(&g);
        let pos = |v: usize| c.iter().position(|comp| comp.contains(&v)).unwrap();
        assert_eq!(pos(1), pos(2));
        assert!(pos(1) < pos(0));
        assert_eq!(c.len(), 3);
        assert_eq!(path(&g, 0, 2), Some(vec![0, 1, 2]));
    }

    #[test]
    fn a_long_chain_does_not_overflow() {
        let n = 200_000;
        let g: Vec<Vec<usize>> = (0..n)
            .map(|v| if v + 1 < n { vec![v + 1] } else { vec![0] })
            .collect();
        assert_eq!(sccs(&g).len(), 1);
    }
}
