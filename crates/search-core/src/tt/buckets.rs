//! The table's memory: one block of zeroed buckets, on huge pages where the system offers them.
//!
//! A probe lands on a random bucket, so in a table larger than the processor's page-translation
//! cache covers (a few MiB of 4 KiB pages) nearly every probe also misses that cache and waits
//! for a page walk. A table of at least [`HUGE_PAGE`] bytes is therefore aligned to 2 MiB and,
//! on Linux, advised as transparent huge pages (`madvise(MADV_HUGEPAGE)`) before any of it is
//! touched: a 16 MiB table then needs 8 translations instead of 4,096. Where the system declines
//! (huge pages switched off, none free), the table works the same on ordinary pages.

use std::alloc::{self, Layout};
use std::fmt;
use std::ops::Deref;
use std::ptr::NonNull;

use super::Bucket;

/// The huge page size asked for: 2 MiB, x86-64's and AArch64's (with 4 KiB base pages).
pub(super) const HUGE_PAGE: usize = 1 << 21;

/// `count` buckets in one allocation, zeroed (every slot empty) when made.
pub(super) struct Buckets {
    ptr: NonNull<Bucket>,
    count: usize,
}

// SAFETY: `Buckets` owns its buckets like a `Box<[Bucket]>`, and `Bucket` (atomics only) is
// `Send` and `Sync`.
unsafe impl Send for Buckets {}
// SAFETY: as above; shared access only hands out `&[Bucket]`.
unsafe impl Sync for Buckets {}

impl Buckets {
    /// `count` empty buckets (`count` ≥ 1), every page written before this returns, so that
    /// memory runs out here rather than in a search; `None` if the memory cannot be allocated.
    pub(super) fn zeroed(count: usize) -> Option<Buckets> {
        let layout = Self::layout(count)?;
        // SAFETY: the layout's size is at least one bucket, not zero.
        let ptr = NonNull::new(unsafe { alloc::alloc(layout) })?.cast::<Bucket>();
        if layout.align() == HUGE_PAGE {
            advise_huge_pages(ptr.as_ptr().cast(), layout.size());
        }
        // SAFETY: the block holds `count` buckets; a bucket of all-zero bytes is a valid
        // `Bucket` (its atomics hold 0) with every slot empty (a zero head is an empty slot).
        unsafe { ptr.as_ptr().write_bytes(0, count) };
        Some(Buckets { ptr, count })
    }

    /// The allocation for `count` buckets: aligned to [`HUGE_PAGE`] when it spans at least one.
    fn layout(count: usize) -> Option<Layout> {
        let size = count.checked_mul(std::mem::size_of::<Bucket>())?;
        let align = if size >= HUGE_PAGE {
            HUGE_PAGE
        } else {
            std::mem::align_of::<Bucket>()
        };
        Layout::from_size_align(size.max(1), align).ok()
    }
}

/// Asks the kernel to back `[ptr, ptr + len)` with transparent huge pages. Advice only: the
/// answer changes nothing but speed, so it is not checked.
#[cfg(target_os = "linux")]
fn advise_huge_pages(ptr: *mut libc::c_void, len: usize) {
    // SAFETY: the range is one live allocation of ours; the advice does not change its
    // contents or validity.
    unsafe { libc::madvise(ptr, len, libc::MADV_HUGEPAGE) };
}

#[cfg(not(target_os = "linux"))]
fn advise_huge_pages(_: *mut u8, _: usize) {}

impl Deref for Buckets {
    type Target = [Bucket];

    #[inline(always)]
    fn deref(&self) -> &[Bucket] {
        // SAFETY: `ptr` holds `count` initialised buckets for as long as `self` lives.
        unsafe { std::slice::from_raw_parts(self.ptr.as_ptr(), self.count) }
    }
}

impl Drop for Buckets {
    fn drop(&mut self) {
        let layout = Self::layout(self.count).expect("the layout it was allocated with");
        // SAFETY: allocated in `zeroed` with this layout; buckets need no drop of their own.
        unsafe { alloc::dealloc(self.ptr.as_ptr().cast(), layout) };
    }
}

impl Clone for Buckets {
    fn clone(&self) -> Buckets {
        let copy = Buckets::zeroed(self.count)
            .unwrap_or_else(|| alloc::handle_alloc_error(Self::layout(self.count).unwrap()));
        for (to, from) in copy.iter().zip(self.iter()) {
            to.copy_from(from);
        }
        copy
    }
}

impl fmt::Debug for Buckets {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} buckets", self.count)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tt::Slot;

    #[test]
    fn large_blocks_are_aligned_to_a_huge_page_and_small_ones_to_a_cache_line() {
        let per_page = HUGE_PAGE / std::mem::size_of::<Bucket>();
        for (count, align) in [
            (1, 64),
            (per_page / 2, 64),
            (per_page, HUGE_PAGE),
            (3 * per_page, HUGE_PAGE),
        ] {
            let buckets = Buckets::zeroed(count).unwrap();
            assert_eq!(buckets.len(), count);
            assert_eq!(buckets.as_ptr() as usize % align, 0, "{count} buckets");
        }
    }

    #[test]
    fn blocks_start_empty_and_clone_their_contents() {
        let count = 2 * HUGE_PAGE / std::mem::size_of::<Bucket>();
        let buckets = Buckets::zeroed(count).unwrap();
        assert!(buckets
            .iter()
            .flat_map(|b| &b.0)
            .all(|s| s.load().bound == 0));
        let full = Bucket::default();
        for (i, slot) in full.0.iter().enumerate() {
            let value = i as i32 + 1;
            slot.store(&Slot {
                key: 7,
                value,
                bound: 2,
                ..Default::default()
            });
        }
        for i in [0, count / 2, count - 1] {
            buckets[i].copy_from(&full);
        }
        let copy = buckets.clone();
        for (i, bucket) in copy.iter().enumerate() {
            let expected = [0, count / 2, count - 1].contains(&i);
            assert_eq!(bucket.0[3].load().value == 4, expected, "bucket {i}");
        }
    }
}
