//! One small sort for the whole crate.
//!
//! `slice::sort*` compiles its whole algorithm (3–9 KB of wasm each) for
//! every element type and comparator, and citemark's sorts are few and
//! small (a message's sources, a response's citations): here they share
//! one merge sort of positions whose comparator sits behind a `dyn`
//! reference (−9 to −10 KiB gzipped in each entry of the npm package).

use std::cmp::Ordering;

/// Sorts `positions` (distinct indexes into something) by `compare`, equal
/// ones in ascending position order: the order a stable sort of the items
/// they point to gives.
pub(crate) fn sort_positions(positions: &mut [usize], compare: &dyn Fn(usize, usize) -> Ordering) {
    let mut scratch = positions.to_vec();
    merge_sort(positions, &mut scratch, &|a, b| {
        compare(a, b).then(a.cmp(&b)) == Ordering::Greater
    });
}

/// Sorts `items` by `compare`, stably, through [`sort_positions`].
pub(crate) fn sort_by<T>(items: &mut Vec<T>, compare: impl Fn(&T, &T) -> Ordering) {
    let mut order: Vec<usize> = (0..items.len()).collect();
    sort_positions(&mut order, &|a, b| compare(&items[a], &items[b]));
    let mut slots: Vec<Option<T>> = items.drain(..).map(Some).collect();
    items.extend(
        order
            .into_iter()
            .filter_map(|position| slots[position].take()),
    );
}

/// Top-down merge sort of `items`, stable; `scratch` holds the same values
/// on entry (the two swap roles at each level) and is left in any order.
fn merge_sort(items: &mut [usize], scratch: &mut [usize], after: &dyn Fn(usize, usize) -> bool) {
    let len = items.len();
    if len < 2 {
        return;
    }
    let mid = len / 2;
    merge_sort(&mut scratch[..mid], &mut items[..mid], after);
    merge_sort(&mut scratch[mid..], &mut items[mid..], after);
    let (left, right) = scratch.split_at(mid);
    let (mut l, mut r) = (0, 0);
    for slot in items.iter_mut() {
        if l == left.len() || (r < right.len() && after(left[l], right[r])) {
            *slot = right[r];
            r += 1;
        } else {
            *slot = left[l];
            l += 1;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn sorts_stably() {
        let mut items = vec![(3, 'a'), (1, 'b'), (3, 'c'), (0, 'd'), (1, 'e')];
        sort_by(&mut items, |a, b| a.0.cmp(&b.0));
        assert_eq!(items, [(0, 'd'), (1, 'b'), (1, 'e'), (3, 'a'), (3, 'c')]);
        let keys = [2, 0, 2, 1];
        let mut positions = [3, 2, 1, 0];
        sort_positions(&mut positions, &|a, b| keys[a].cmp(&keys[b]));
        assert_eq!(positions, [1, 3, 0, 2]);
        let mut empty: Vec<u32> = Vec::new();
        sort_by(&mut empty, u32::cmp);
        assert!(empty.is_empty());
    }

    proptest! {
        #[test]
        fn sorts_as_the_standard_stable_sort_does(keys in proptest::collection::vec(0u8..8, 0..200)) {
            let mut items: Vec<(u8, usize)> = keys.iter().copied().zip(0..).collect();
            let mut expected = items.clone();
            expected.sort_by_key(|&(key, _)| key);
            sort_by(&mut items, |a, b| a.0.cmp(&b.0));
            prop_assert_eq!(items, expected);
        }
    }
}
