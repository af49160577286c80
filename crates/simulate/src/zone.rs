//! A zone as the constraints a person reads: bounds of each clock
//! (`x == 2`, `1 < x <= 3`), then the differences the bounds do not imply.

use zeno_checker::ZoneBound;
use zeno_checker::dbm::{Dbm, bound};
use zeno_ir::Network;

/// The constraints of a canonical zone that its single-clock bounds do not
/// already imply (and no `x >= 0`, which every clock satisfies).
pub fn constraints(zone: &Dbm) -> Vec<ZoneBound> {
    let dim = zone.dim();
    let mut out = Vec::new();
    for i in 0..dim {
        for j in 0..dim {
            let b = zone.get(i, j);
            if i == 0 && b == bound::LE_ZERO {
                continue;
            }
            // x_i - x_j ≺ b follows from x_i ≺ b(i,0) and -x_j ≺ b(0,j).
            if i != 0 && j != 0 && bound::add(zone.get(i, 0), zone.get(0, j)) <= b {
                continue;
            }
            out.extend(ZoneBound::of(zone, i, j));
        }
    }
    out
}

/// The zone in words, one constraint per string: `x == 0`, `1 < x <= 3`,
/// `y >= 2`, `x - y < 1`; `false` for the empty zone.
pub fn describe(net: &Network, zone: &Dbm) -> Vec<String> {
    if zone.is_empty() {
        return vec!["false".to_string()];
    }
    let name = |i: u32| {
        net.clocks
            .get(i as usize)
            .map_or(format!("#{i}"), |c| c.name.clone())
    };
    let all = constraints(zone);
    let find = |i: u32, j: u32| all.iter().find(|b| b.i == i && b.j == j);
    let mut out = Vec::new();
    for x in 1..zone.dim() as u32 {
        let upper = find(x, 0);
        let lower = find(0, x);
        let line = match (lower, upper) {
            (Some(l), Some(u)) if !l.strict && !u.strict && -l.bound == u.bound => {
                format!("{} == {}", name(x), u.bound)
            }
            (Some(l), Some(u)) => format!(
                "{} {} {} {} {}",
                -l.bound,
                if l.strict { "<" } else { "<=" },
                name(x),
                if u.strict { "<" } else { "<=" },
                u.bound
            ),
            (Some(l), None) => {
                format!(
                    "{} {} {}",
                    name(x),
                    if l.strict { ">" } else { ">=" },
                    -l.bound
                )
            }
            (None, Some(u)) => {
                format!(
                    "{} {} {}",
                    name(x),
                    if u.strict { "<" } else { "<=" },
                    u.bound
                )
            }
            (None, None) => continue,
        };
        out.push(line);
    }
    for b in all.iter().filter(|b| b.i != 0 && b.j != 0) {
        out.push(format!(
            "{} - {} {} {}",
            name(b.i),
            name(b.j),
            if b.strict { "<" } else { "<=" },
            b.bound
        ));
    }
    out
}
