//! Go's unstable `sort.Sort` (pdqsort), ported so `--sort-by` leaves equal objects where kubectl does.

// A function-by-function port of src/sort/zsortinterface.go and the pdqsort half of src/sort/sort.go
// as of Go 1.24 and later (kubectl 1.36 is built with such a Go). Go 1.19–1.23 differ only in the
// shifts of `xorshift.Next` (13, 17, 5 then; 13, 7, 17 since golang/go#70144), which matter once
// `breakPatterns` runs. Indices are absolute, as in Go: `pdqsort` compares with `data[a-1]`, outside
// the range it sorts. Go's `uint` is taken to be 64 bits, as on the machines kubectl runs on.

/// Go's `data Interface`: the slice plus its `Less`; `Len` is `items.len()`.
struct Data<'a, T, F> {
    items: &'a mut [T],
    less: F,
}

impl<T, F: FnMut(&T, &T) -> bool> Data<'_, T, F> {
    fn less(&mut self, i: usize, j: usize) -> bool {
        (self.less)(&self.items[i], &self.items[j])
    }

    fn swap(&mut self, i: usize, j: usize) {
        self.items.swap(i, j);
    }
}

/// `sortedHint`: what `choosePivot` saw of the order around its samples.
#[derive(Clone, Copy, PartialEq, Eq)]
enum SortedHint {
    Unknown,
    Increasing,
    Decreasing,
}

/// `xorshift`, the generator `breakPatterns` seeds with the length it scatters.
struct Xorshift(u64);

impl Xorshift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// `bits.Len(uint(x))`: the number of bits needed to write `x`.
fn bits_len(x: usize) -> u32 {
    u64::BITS - (x as u64).leading_zeros()
}

/// `nextPowerOfTwo`: `1 << bits.Len(length)` (so 16 gives 32).
fn next_power_of_two(length: usize) -> u64 {
    1 << bits_len(length)
}

/// Sorts `items` as Go's sort.Sort does with `less` as Less (unstable; equal items end where Go's pdqsort leaves them).
pub fn sort<T>(items: &mut [T], less: impl FnMut(&T, &T) -> bool) {
    let n = items.len();
    if n <= 1 {
        return;
    }
    let limit = bits_len(n);
    pdqsort(&mut Data { items, less }, 0, n, limit);
}

/// `insertionSort`: sorts `data[a:b]`, moving an item left only past strictly greater ones.
fn insertion_sort<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    for i in a + 1..b {
        let mut j = i;
        while j > a && data.less(j, j - 1) {
            data.swap(j, j - 1);
            j -= 1;
        }
    }
}

/// `siftDown`: restores the heap property on `data[lo:hi]`, the heap's root at `first`.
fn sift_down<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, lo: usize, hi: usize, first: usize) {
    let mut root = lo;
    loop {
        let mut child = 2 * root + 1;
        if child >= hi {
            break;
        }
        if child + 1 < hi && data.less(first + child, first + child + 1) {
            child += 1;
        }
        if !data.less(first + root, first + child) {
            return;
        }
        data.swap(first + root, first + child);
        root = child;
    }
}

/// `heapSort`: the fallback once `limit` bad pivots have been chosen.
fn heap_sort<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    let first = a;
    let lo = 0;
    let hi = b - a;
    // Build the heap with the greatest element at the top (Go's `(hi-1)/2` is 0 for hi == 0).
    for i in (0..=hi.saturating_sub(1) / 2).rev() {
        sift_down(data, i, hi, first);
    }
    // Pop elements, largest first, into the end of data.
    for i in (0..hi).rev() {
        data.swap(first, first + i);
        sift_down(data, lo, i, first);
    }
}

/// `pdqsort`: sorts `data[a:b]`; `limit` is how many unbalanced partitions are allowed before heapsort.
fn pdqsort<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, mut a: usize, mut b: usize, mut limit: u32) {
    const MAX_INSERTION: usize = 12;
    let mut was_balanced = true;
    let mut was_partitioned = true;
    loop {
        let length = b - a;
        if length <= MAX_INSERTION {
            insertion_sort(data, a, b);
            return;
        }
        if limit == 0 {
            heap_sort(data, a, b);
            return;
        }
        if !was_balanced {
            break_patterns(data, a, b);
            limit -= 1;
        }
        let (mut pivot, mut hint) = choose_pivot(data, a, b);
        if hint == SortedHint::Decreasing {
            reverse_range(data, a, b);
            pivot = (b - 1) - (pivot - a);
            hint = SortedHint::Increasing;
        }
        if was_balanced && was_partitioned && hint == SortedHint::Increasing && partial_insertion_sort(data, a, b) {
            return;
        }
        // Many items equal to the one before the range: put those equal to the pivot first.
        if a > 0 && !data.less(a - 1, pivot) {
            a = partition_equal(data, a, b, pivot);
            continue;
        }
        let (mid, already_partitioned) = partition(data, a, b, pivot);
        was_partitioned = already_partitioned;
        let (left_len, right_len) = (mid - a, b - mid);
        let balance_threshold = length / 8;
        if left_len < right_len {
            was_balanced = left_len >= balance_threshold;
            pdqsort(data, a, mid, limit);
            a = mid + 1;
        } else {
            was_balanced = right_len >= balance_threshold;
            pdqsort(data, mid + 1, b, limit);
            b = mid;
        }
    }
}

/// `partition`: one quicksort partition around `data[pivot]`, which ends at the returned index;
/// also whether nothing had to move.
fn partition<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    pivot: usize,
) -> (usize, bool) {
    data.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    while i <= j && data.less(i, a) {
        i += 1;
    }
    while i <= j && !data.less(j, a) {
        j -= 1;
    }
    if i > j {
        data.swap(j, a);
        return (j, true);
    }
    data.swap(i, j);
    i += 1;
    j -= 1;
    loop {
        while i <= j && data.less(i, a) {
            i += 1;
        }
        while i <= j && !data.less(j, a) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
    data.swap(j, a);
    (j, false)
}

/// `partitionEqual`: splits `data[a:b]`, which holds nothing smaller than `data[pivot]`, into
/// items equal to it and then greater ones; returns where the greater ones start.
fn partition_equal<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize, pivot: usize) -> usize {
    data.swap(a, pivot);
    let (mut i, mut j) = (a + 1, b - 1);
    loop {
        while i <= j && !data.less(a, i) {
            i += 1;
        }
        while i <= j && data.less(a, j) {
            j -= 1;
        }
        if i > j {
            break;
        }
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
    i
}

/// `partialInsertionSort`: fixes up to five out-of-order pairs (only in ranges of 50 or more);
/// true if `data[a:b]` ends sorted.
fn partial_insertion_sort<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) -> bool {
    const MAX_STEPS: usize = 5;
    const SHORTEST_SHIFTING: usize = 50;
    let mut i = a + 1;
    for _ in 0..MAX_STEPS {
        while i < b && !data.less(i, i - 1) {
            i += 1;
        }
        if i == b {
            return true;
        }
        if b - a < SHORTEST_SHIFTING {
            return false;
        }
        data.swap(i, i - 1);
        // Shift the smaller one to the left (down to index 1, not a + 1, as Go does).
        if i - a >= 2 {
            for j in (1..i).rev() {
                if !data.less(j, j - 1) {
                    break;
                }
                data.swap(j, j - 1);
            }
        }
        // Shift the greater one to the right.
        if b - i >= 2 {
            for j in i + 1..b {
                if !data.less(j, j - 1) {
                    break;
                }
                data.swap(j, j - 1);
            }
        }
    }
    false
}

/// `breakPatterns`: swaps the three middle items with pseudo-random ones, seeded by the length.
fn break_patterns<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    let length = b - a;
    if length >= 8 {
        let mut random = Xorshift(length as u64);
        let modulus = next_power_of_two(length);
        let middle = a + (length / 4) * 2;
        for idx in middle - 1..=middle + 1 {
            // Less than modulus, which is at most 2 * length: it fits a usize.
            let mut other = (random.next() & (modulus - 1)) as usize;
            if other >= length {
                other -= length;
            }
            data.swap(idx, a + other);
        }
    }
}

/// `choosePivot`: the median of three samples (of three medians from 50 items on), and what
/// the comparisons said of the order: no swaps is increasing, all twelve decreasing.
fn choose_pivot<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) -> (usize, SortedHint) {
    const SHORTEST_NINTHER: usize = 50;
    const MAX_SWAPS: u32 = 4 * 3;
    let l = b - a;
    let mut swaps = 0;
    let mut i = a + l / 4;
    let mut j = a + l / 4 * 2;
    let mut k = a + l / 4 * 3;
    if l >= 8 {
        if l >= SHORTEST_NINTHER {
            i = median_adjacent(data, i, &mut swaps);
            j = median_adjacent(data, j, &mut swaps);
            k = median_adjacent(data, k, &mut swaps);
        }
        j = median(data, i, j, k, &mut swaps);
    }
    match swaps {
        0 => (j, SortedHint::Increasing),
        MAX_SWAPS => (j, SortedHint::Decreasing),
        _ => (j, SortedHint::Unknown),
    }
}

/// `order2`: `(a, b)` ordered so `data[x] <= data[y]`, counting a swap when they were not.
fn order2<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    swaps: &mut u32,
) -> (usize, usize) {
    if data.less(b, a) {
        *swaps += 1;
        return (b, a);
    }
    (a, b)
}

/// `median`: which of `a`, `b`, `c` holds the median of the three.
fn median<T, F: FnMut(&T, &T) -> bool>(
    data: &mut Data<'_, T, F>,
    a: usize,
    b: usize,
    c: usize,
    swaps: &mut u32,
) -> usize {
    let (a, b) = order2(data, a, b, swaps);
    let (b, _) = order2(data, b, c, swaps);
    let (_, b) = order2(data, a, b, swaps);
    b
}

/// `medianAdjacent`: the median of `data[a-1]`, `data[a]` and `data[a+1]`.
fn median_adjacent<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, swaps: &mut u32) -> usize {
    median(data, a - 1, a, a + 1, swaps)
}

/// `reverseRange`: reverses `data[a:b]` in place.
fn reverse_range<T, F: FnMut(&T, &T) -> bool>(data: &mut Data<'_, T, F>, a: usize, b: usize) {
    let (mut i, mut j) = (a, b - 1);
    while i < j {
        data.swap(i, j);
        i += 1;
        j -= 1;
    }
}

#[cfg(test)]
mod tests {
    use super::{Data, pdqsort, sort};

    /// Where each item ends: sorts `(key, original index)` by key alone and reads the indexes.
    fn permutation(keys: &[u32]) -> Vec<usize> {
        let mut items: Vec<(u32, usize)> = keys.iter().copied().zip(0..).collect();
        sort(&mut items, |a, b| a.0 < b.0);
        items.iter().map(|&(_, index)| index).collect()
    }

    #[test]
    fn sorts_random_vectors() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = move || {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state
        };
        for len in 0..200 {
            for range in [2, 5, len as u64 + 1, u64::MAX] {
                let mut items: Vec<u64> = (0..len).map(|_| next() % range).collect();
                let mut expected = items.clone();
                expected.sort_unstable();
                sort(&mut items, |a, b| a < b);
                assert_eq!(items, expected, "len {len}, keys below {range}");
            }
        }
    }

    #[test]
    fn up_to_twelve_items_insertion_sort_keeps_equal_keys_in_input_order() {
        assert_eq!(permutation(&[3, 1, 2, 1, 3, 0, 2, 1]), [5, 1, 3, 7, 2, 6, 0, 4]);
        assert_eq!(permutation(&[0; 12]), (0..12).collect::<Vec<_>>());
    }

    /// Traced by hand through the Go source. n = 14, limit = bits.Len(14) = 4.
    /// choosePivot(0,14) samples 3, 6, 9 (keys 0 0 1): no swaps, pivot 6, increasingHint;
    /// partialInsertionSort stops at index 3 (0 < 2) and gives up (fewer than 50 items).
    /// partition(0,14,6) swaps 0↔6; nothing is below key 0, so j runs down to 0: mid 0,
    /// already partitioned; left 0 < 14/8 is unbalanced, so the loop goes on with [1,14).
    /// breakPatterns(1,14): xorshift(13) gives 14069506893, 14988908846326605643,
    /// 3428281591454193221, masked by 15: 13 (→ 0), 11, 5, so it swaps 6↔1, 7↔12, 8↔6.
    /// choosePivot(1,14) samples 4, 7, 10 (keys 0 0 3): pivot 7; data[0] (key 0) is not less
    /// than it, so partitionEqual(1,14,7): swaps 1↔7, then 2↔13, and returns 5.
    /// insertionSort(5,14) keeps 5 0 1 9 7 | 8 2 | 10 11 in the order they stand.
    /// (With Go 1.19–1.23's shifts the draws are 13, 13, 9, and the 1s come out 0 1 7 9 5.)
    #[test]
    fn break_patterns_then_partition_equal_as_go_leaves_them() {
        let keys = [1, 1, 2, 0, 0, 1, 0, 1, 2, 1, 3, 3, 0, 0];
        assert_eq!(permutation(&keys), [6, 12, 13, 3, 4, 5, 0, 1, 9, 7, 8, 2, 10, 11]);
    }

    /// Traced by hand through the Go source. n = 20: choosePivot samples 5, 10, 15 (keys 1 1 1),
    /// pivot 10; partition(0,20,10) swaps 0↔10, 1↔18, 2↔12, 3↔4, then 3↔0: mid 3, balanced
    /// (3 ≥ 20/8). [0,3) is insertion-sorted as it stands; [4,20) samples 8, 12, 16 (keys 1 2 2),
    /// pivot 12; data[3] (key 1) is less, so partition(4,20,12) swaps 4↔12, 6↔18, 9↔17, 10↔15,
    /// 11↔13, then 12↔4: mid 12, halves of 8 each; both are insertion-sorted as they stand.
    #[test]
    fn two_partitions_as_go_leaves_them() {
        let keys = [2, 1, 2, 1, 0, 1, 2, 1, 1, 2, 1, 2, 0, 1, 2, 1, 2, 1, 0, 2];
        let expected = [4, 18, 12, 10, 3, 5, 1, 7, 8, 17, 15, 13, 2, 11, 14, 0, 16, 9, 6, 19];
        assert_eq!(permutation(&keys), expected);
    }

    /// Not traced by hand: Go's own sort source run on this input (Go 1.19.8's zsortinterface.go,
    /// the same as today's, with xorshift's shifts as in Go 1.24+). 50 items reach the Tukey
    /// ninther, whose twelve swaps mean decreasing: reverseRange, then partialInsertionSort shifts
    /// five pairs before it gives up, and a partitionEqual follows. The 5s (19, 45) come out
    /// reversed, the 22s (6, 10, 28) as 28 10 6.
    #[test]
    fn ninther_reverse_and_partial_insertion_sort_as_go_leaves_them() {
        let keys = [
            50, 49, 48, 47, 46, 45, 22, 43, 42, 41, 22, 39, 38, 37, 36, 43, 34, 33, 27, 5, 30, 29, 26, 27, 26, 25, 24,
            23, 22, 21, 20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 26, 6, 5, 4, 3, 2, 1,
        ];
        let expected = [
            49, 48, 47, 46, 45, 19, 44, 42, 41, 40, 39, 38, 37, 36, 35, 34, 33, 32, 31, 30, 29, 28, 10, 6, 27, 26, 25,
            43, 24, 22, 23, 18, 21, 20, 17, 16, 14, 13, 12, 11, 9, 8, 7, 15, 5, 4, 3, 2, 1, 0,
        ];
        assert_eq!(permutation(&keys), expected);
    }

    /// Not traced by hand: Go's pdqsort(data, 0, 14, 0) (so heapSort at once), run as above.
    #[test]
    fn heap_sort_as_go_leaves_it() {
        let mut items: Vec<(u32, usize)> = [1, 1, 2, 0, 0, 1, 0, 1, 2, 1, 3, 3, 0, 0].into_iter().zip(0..).collect();
        pdqsort(&mut Data { items: &mut items, less: |a: &(u32, usize), b: &(u32, usize)| a.0 < b.0 }, 0, 14, 0);
        let order: Vec<usize> = items.iter().map(|&(_, index)| index).collect();
        assert_eq!(order, [12, 6, 4, 3, 13, 5, 1, 7, 9, 0, 2, 8, 11, 10]);
    }
}
