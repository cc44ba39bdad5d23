//! The plans a function made, one per kind of call it met (operand types,
//! digits), so that a batch only reads its arrays: a rewritten expression
//! has a function of its own, so in practice one plan per expression.

use std::sync::{Arc, Mutex, PoisonError};

use datafusion::common::Result;

/// Plans by what they were made for, each made once.
#[derive(Debug)]
pub(crate) struct PlanCache<K, P>(Mutex<Vec<(K, Arc<P>)>>);

impl<K, P> Default for PlanCache<K, P> {
    fn default() -> Self {
        Self(Mutex::new(Vec::new()))
    }
}

/// Plans made across all functions, for the tests that count them.
#[cfg(test)]
pub(crate) static PLANS_MADE: std::sync::atomic::AtomicUsize =
    std::sync::atomic::AtomicUsize::new(0);

impl<K: PartialEq, P> PlanCache<K, P> {
    /// The plan for `key`, made by `make` the first time it is met.
    pub(crate) fn get(&self, key: K, make: impl FnOnce() -> Result<P>) -> Result<Arc<P>> {
        let mut plans = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((_, plan)) = plans.iter().find(|(k, _)| *k == key) {
            return Ok(Arc::clone(plan));
        }
        let plan = Arc::new(make()?);
        #[cfg(test)]
        PLANS_MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        plans.push((key, Arc::clone(&plan)));
        Ok(plan)
    }
}
