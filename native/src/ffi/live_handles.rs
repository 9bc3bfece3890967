//! Addresses of the live handles of one handle type. Calls that take a handle check it here
//! first, so a stale, foreign or already-freed pointer is rejected instead of touched.

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

use crate::ffi::guard::{check_arg, GatunError, GatunResult};
use crate::ffi::stats::handle_freed;

pub struct LiveHandles {
    set: Mutex<Option<HashSet<usize>>>,
    /// The argument's name in the C signatures, for messages.
    arg: &'static str,
    /// The handle's C type name, for messages.
    kind: &'static str,
}

impl LiveHandles {
    pub const fn new(arg: &'static str, kind: &'static str) -> Self {
        LiveHandles {
            set: Mutex::new(None),
            arg,
            kind,
        }
    }

    fn lock(&self) -> MutexGuard<'_, Option<HashSet<usize>>> {
        self.set
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner())
    }

    pub fn insert<T>(&self, handle: *mut T) {
        self.lock()
            .get_or_insert_with(HashSet::new)
            .insert(handle as usize);
    }

    /// Ok when `handle` is registered (non-NULL and still live).
    pub fn check<T>(&self, handle: *mut T) -> GatunResult {
        check_arg(handle.cast_const(), self.arg)?;
        if self
            .lock()
            .as_ref()
            .is_some_and(|set| set.contains(&(handle as usize)))
        {
            Ok(())
        } else {
            Err(self.not_live(handle, "freed or never created"))
        }
    }

    /// Unregisters `handle`; Ok only for the one call that removed it, so the caller frees once.
    pub fn remove<T>(&self, handle: *mut T) -> GatunResult {
        check_arg(handle.cast_const(), self.arg)?;
        if self
            .lock()
            .as_mut()
            .is_some_and(|set| set.remove(&(handle as usize)))
        {
            Ok(())
        } else {
            Err(self.not_live(handle, "already freed or never created"))
        }
    }

    /// Unregisters `handle` and drops the box behind it, once; the handle counter follows.
    ///
    /// # Safety
    /// Every handle registered here must come from `Box::into_raw` of a `Box<T>`.
    pub unsafe fn free<T>(&self, handle: *mut T) -> GatunResult {
        self.remove(handle)?;
        // SAFETY: it was registered, so it came from `Box::into_raw`, and `remove` succeeds
        // for one call only, so this is the only free.
        drop(unsafe { Box::from_raw(handle) });
        handle_freed();
        Ok(())
    }

    fn not_live<T>(&self, handle: *mut T, why: &str) -> GatunError {
        GatunError::invalid_argument(format!(
            "argument `{}` ({handle:p}) is not a live {} ({why})",
            self.arg, self.kind
        ))
    }
}
