//! Discrete parts packed into bytes for the store. A discrete part is an
//! `i32` per process (its location) and per variable slot (its value), but
//! a location id is below the process's location count and a variable
//! stays within its declared range (leaving it is a model error, caught
//! before a state is stored), so most slots fit one byte and few need more
//! than two: Fischer with 10 processes packs 11 slots into 11 bytes rather
//! than 44.
//!
//! Each slot is stored as its offset from the range's low end in the
//! fewest whole bytes (1, 2 or 4) that hold the range's width. A value
//! outside the range the codec was built for is still stored exactly:
//! [`KeyCodec::encode`] refuses it, and the store then turns to the
//! [`KeyCodec::wide`] codec (4 bytes a slot, no offset) for every key.

use zeno_ir::Network;

/// How the slots of a discrete part are packed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeyCodec {
    /// Per slot: the low end of its range and its width in bytes.
    slots: Vec<(i32, u8)>,
    /// Bytes of a packed key.
    len: usize,
}

impl KeyCodec {
    /// The codec of `n` slots of 4 bytes each: every `i32` fits.
    pub fn wide(n: usize) -> KeyCodec {
        KeyCodec {
            slots: vec![(0, 4); n],
            len: 4 * n,
        }
    }

    /// The codec for slots whose values lie in the inclusive `ranges`.
    pub fn for_ranges(ranges: impl IntoIterator<Item = (i32, i32)>) -> KeyCodec {
        let slots: Vec<(i32, u8)> = ranges
            .into_iter()
            .map(|(lo, hi)| {
                let width = (i64::from(hi) - i64::from(lo)).max(0);
                let bytes = if width <= i64::from(u8::MAX) {
                    1
                } else if width <= i64::from(u16::MAX) {
                    2
                } else {
                    4
                };
                (if bytes == 4 { 0 } else { lo }, bytes)
            })
            .collect();
        let len = slots.iter().map(|&(_, b)| b as usize).sum();
        KeyCodec { slots, len }
    }

    /// The codec of `net`'s discrete parts: the location of each process
    /// (below its location count), then the variables (their declared
    /// ranges).
    pub fn of_network(net: &Network) -> KeyCodec {
        let locations = net.processes.iter().map(|p| {
            let last = p.locations.len().saturating_sub(1);
            (0, i32::try_from(last).unwrap_or(i32::MAX))
        });
        KeyCodec::for_ranges(locations.chain(net.variables.iter().map(|v| (v.lo, v.hi))))
    }

    /// Bytes of a packed key.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Appends the packed `key` to `out`; `false` (and `out` as it was)
    /// when a value lies outside its slot's range.
    pub fn encode(&self, key: &[i32], out: &mut Vec<u8>) -> bool {
        debug_assert_eq!(key.len(), self.slots.len());
        let start = out.len();
        for (&v, &(lo, bytes)) in key.iter().zip(&self.slots) {
            let ok = match bytes {
                1 => u8::try_from(i64::from(v) - i64::from(lo))
                    .map(|b| out.push(b))
                    .is_ok(),
                2 => u16::try_from(i64::from(v) - i64::from(lo))
                    .map(|b| out.extend_from_slice(&b.to_le_bytes()))
                    .is_ok(),
                _ => {
                    out.extend_from_slice(&v.to_le_bytes());
                    true
                }
            };
            if !ok {
                out.truncate(start);
                return false;
            }
        }
        true
    }

    /// Appends the values of the packed key `packed` to `out`.
    pub fn decode(&self, packed: &[u8], out: &mut Vec<i32>) {
        debug_assert_eq!(packed.len(), self.len);
        let mut at = 0;
        for &(lo, bytes) in &self.slots {
            let v = match bytes {
                1 => lo + i32::from(packed[at]),
                2 => lo + i32::from(u16::from_le_bytes([packed[at], packed[at + 1]])),
                _ => {
                    i32::from_le_bytes([packed[at], packed[at + 1], packed[at + 2], packed[at + 3]])
                }
            };
            out.push(v);
            at += bytes as usize;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_round_trip_in_the_fewest_bytes() {
        let codec = KeyCodec::for_ranges([(0, 3), (-5, 300), (i32::MIN, i32::MAX), (7, 7)]);
        assert_eq!(codec.len(), 1 + 2 + 4 + 1);
        for key in [[0, -5, i32::MIN, 7], [3, 300, i32::MAX, 7], [2, 0, -1, 7]] {
            let mut packed = Vec::new();
            assert!(codec.encode(&key, &mut packed));
            assert_eq!(packed.len(), codec.len());
            let mut back = Vec::new();
            codec.decode(&packed, &mut back);
            assert_eq!(back, key);
        }
    }

    #[test]
    fn a_value_outside_its_range_is_refused_not_wrapped() {
        let codec = KeyCodec::for_ranges([(0, 3), (-5, 300)]);
        let mut packed = vec![9];
        // -1 lies below the first slot's byte, 65,531 + 5 beyond the
        // second slot's two bytes.
        assert!(!codec.encode(&[-1, 0], &mut packed));
        assert!(!codec.encode(&[0, 65_531], &mut packed));
        assert_eq!(packed, [9], "a refused key leaves nothing behind");
        // Within the byte but beyond the declared range: still exact.
        assert!(codec.encode(&[200, 0], &mut packed));
        let mut back = Vec::new();
        codec.decode(&packed[1..], &mut back);
        assert_eq!(back, [200, 0]);
        let wide = KeyCodec::wide(2);
        packed.clear();
        assert!(wide.encode(&[i32::MIN, 65_531], &mut packed));
        back.clear();
        wide.decode(&packed, &mut back);
        assert_eq!(back, [i32::MIN, 65_531]);
    }
}
