//! Memory accounting against `--memory-mib`: every table of the search grows through it.

/// Memory accounting against `--memory-mib`.
#[derive(Debug)]
pub(super) struct Budget {
    pub(super) bytes: u64,
    pub(super) limit: u64,
}

impl Budget {
    /// Makes room for one more element in `v`, growing it by doubling when the budget
    /// allows; `false` when it does not.
    pub(super) fn room<T>(&mut self, v: &mut Vec<T>) -> bool {
        if v.len() < v.capacity() {
            return true;
        }
        let extra = v.capacity().max(1024);
        let bytes = (extra * size_of::<T>()) as u64;
        if self.bytes + bytes > self.limit {
            return false;
        }
        v.reserve_exact(extra);
        self.bytes += ((v.capacity() - v.len()) * size_of::<T>()) as u64;
        true
    }
}
