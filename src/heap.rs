//! The page's memory allocator: blocks of power-of-two sizes, each size with its own free list,
//! carved from fresh 64 KiB wasm pages. The standard library's (dlmalloc) costs the bundle ~3 KB
//! gzip (issue 7); this one is a few hundred bytes. A block is never split or merged: memory a
//! size held stays with that size, which suits the page (the same few sizes come and go as the
//! simulation runs; what grows is bounded).

use std::alloc::{GlobalAlloc, Layout};
use std::cell::UnsafeCell;

/// A wasm page: what `memory.grow` adds, and the alignment of every page-sized block.
const PAGE: usize = 64 * 1024;
/// Block sizes: 2^3 (a free list's link fits) to 2^31.
const SIZES: usize = 32;

/// The free lists, by the power of two of their blocks' size. Each free block holds the address
/// of the next one (0 at the end).
pub struct Heap(UnsafeCell<[usize; SIZES]>);

// The page runs one thread.
unsafe impl Sync for Heap {}

impl Heap {
    /// No memory held yet.
    pub const fn new() -> Heap {
        Heap(UnsafeCell::new([0; SIZES]))
    }
}

impl Default for Heap {
    fn default() -> Heap {
        Heap::new()
    }
}

/// The power of two of the block `layout` takes: its size rounded up (at least 8, at least its
/// alignment). Blocks lie at multiples of their size (of [`PAGE`] above it), so any alignment up
/// to the size holds.
fn power(layout: Layout) -> usize {
    let size = layout.size().max(layout.align()).max(8);
    (usize::BITS - (size - 1).leading_zeros()) as usize
}

/// `pages` fresh wasm pages (zeroed), or `None` when the browser refuses more memory.
fn grow(pages: usize) -> Option<usize> {
    let old = core::arch::wasm32::memory_grow(0, pages);
    (old != usize::MAX).then(|| old * PAGE)
}

unsafe impl GlobalAlloc for Heap {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let power = power(layout);
        if power >= SIZES || layout.align() > PAGE {
            return std::ptr::null_mut();
        }
        let size: usize = 1 << power;
        let free = &mut (*self.0.get())[power];
        if *free == 0 {
            // A page cut into blocks of this size (a block of a page or more: its own pages).
            let Some(start) = grow(size.div_ceil(PAGE)) else {
                return std::ptr::null_mut();
            };
            let mut at = start + size.max(PAGE) - size;
            while at > start {
                *(at as *mut usize) = *free;
                *free = at;
                at -= size;
            }
            return start as *mut u8;
        }
        let block = *free;
        *free = *(block as *const usize);
        block as *mut u8
    }

    unsafe fn dealloc(&self, block: *mut u8, layout: Layout) {
        let free = &mut (*self.0.get())[power(layout)];
        *(block as *mut usize) = *free;
        *free = block as usize;
    }

    unsafe fn realloc(&self, block: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let new = Layout::from_size_align_unchecked(new_size, layout.align());
        if power(new) == power(layout) {
            return block;
        }
        let moved = self.alloc(new);
        if !moved.is_null() {
            std::ptr::copy_nonoverlapping(block, moved, layout.size().min(new_size));
            self.dealloc(block, layout);
        }
        moved
    }
}
