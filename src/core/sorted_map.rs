//! A map kept as one sorted `Vec`: the engines' only keyed container.
//!
//! Every engine keeps a handful of small keyed tables (operations in flight,
//! lanes per thread, sessions, pending requests). `BTreeMap` would do, but in
//! wasm each of its instantiations costs about 9 KB of node-balancing code;
//! this map is a binary search over a `Vec` and costs a few hundred bytes per
//! instantiation. Lookups are `O(log n)`; inserts and removals move the tail
//! (`O(n)` bytes), which stays cheap at the sizes the engines reach (the
//! owner cache, the largest, is bounded at 4,096). Iteration is in key order,
//! like `BTreeMap`, so behaviour that depends on order is deterministic.

use std::borrow::Borrow;

/// A map from ordered keys to values, stored sorted in one `Vec`.
///
/// ```
/// # use renderer_steering::core::sorted_map::SortedMap;
/// let mut ops = SortedMap::new();
/// ops.insert(2, "second");
/// ops.insert(1, "first");
/// assert_eq!(ops.values().copied().collect::<Vec<_>>(), ["first", "second"]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SortedMap<K, V> {
    entries: Vec<(K, V)>,
}

impl<K, V> Default for SortedMap<K, V> {
    fn default() -> Self {
        SortedMap { entries: Vec::new() }
    }
}

impl<K: Ord, V> SortedMap<K, V> {
    /// An empty map.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let map: SortedMap<u32, &str> = SortedMap::new();
    /// assert!(map.is_empty());
    /// ```
    pub const fn new() -> Self {
        SortedMap { entries: Vec::new() }
    }

    fn find<Q: Ord + ?Sized>(&self, key: &Q) -> Result<usize, usize>
    where
        K: Borrow<Q>,
    {
        self.entries.binary_search_by(|(k, _)| k.borrow().cmp(key))
    }

    /// Number of entries.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(1, "a");
    /// assert_eq!(map.len(), 1);
    /// ```
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the map holds nothing.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let map: SortedMap<u32, ()> = SortedMap::default();
    /// assert!(map.is_empty());
    /// ```
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Drops every entry.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(1, "a");
    /// map.clear();
    /// assert!(map.is_empty());
    /// ```
    pub fn clear(&mut self) {
        self.entries.clear();
    }

    /// The value under `key`.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert("t".to_string(), 1);
    /// assert_eq!(map.get("t"), Some(&1));
    /// ```
    pub fn get<Q: Ord + ?Sized>(&self, key: &Q) -> Option<&V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| &self.entries[i].1)
    }

    /// The value under `key`, mutably.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(1, 1);
    /// *map.get_mut(&1).unwrap() += 1;
    /// assert_eq!(map.get(&1), Some(&2));
    /// ```
    pub fn get_mut<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<&mut V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(move |i| &mut self.entries[i].1)
    }

    /// Whether `key` is present.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(1, ());
    /// assert!(map.contains_key(&1));
    /// ```
    pub fn contains_key<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.find(key).is_ok()
    }

    /// Puts `value` under `key`; returns the value it replaced.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// assert_eq!(map.insert(1, "a"), None);
    /// assert_eq!(map.insert(1, "b"), Some("a"));
    /// ```
    pub fn insert(&mut self, key: K, value: V) -> Option<V> {
        match self.find(&key) {
            Ok(i) => Some(std::mem::replace(&mut self.entries[i].1, value)),
            Err(i) => {
                self.entries.insert(i, (key, value));
                None
            }
        }
    }

    /// The value under `key`, inserting `make()` first when absent.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map: SortedMap<u32, Vec<u32>> = SortedMap::new();
    /// map.get_or_insert_with(1, Vec::new).push(7);
    /// assert_eq!(map.get(&1), Some(&vec![7]));
    /// ```
    pub fn get_or_insert_with(&mut self, key: K, make: impl FnOnce() -> V) -> &mut V {
        let i = match self.find(&key) {
            Ok(i) => i,
            Err(i) => {
                self.entries.insert(i, (key, make()));
                i
            }
        };
        &mut self.entries[i].1
    }

    /// Takes the value under `key` out of the map.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(1, "a");
    /// assert_eq!(map.remove(&1), Some("a"));
    /// assert_eq!(map.remove(&1), None);
    /// ```
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> Option<V>
    where
        K: Borrow<Q>,
    {
        self.find(key).ok().map(|i| self.entries.remove(i).1)
    }

    /// Keeps only the entries `keep` accepts.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(1, "a");
    /// map.insert(2, "b");
    /// map.retain(|k, _| *k > 1);
    /// assert_eq!(map.len(), 1);
    /// ```
    pub fn retain(&mut self, mut keep: impl FnMut(&K, &mut V) -> bool) {
        self.entries.retain_mut(|(k, v)| keep(k, v));
    }

    /// Entries in key order.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(2, "b");
    /// map.insert(1, "a");
    /// assert_eq!(map.iter().collect::<Vec<_>>(), [(&1, &"a"), (&2, &"b")]);
    /// ```
    pub fn iter(&self) -> impl Iterator<Item = (&K, &V)> {
        self.entries.iter().map(|(k, v)| (k, v))
    }

    /// Keys in order.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(2, ());
    /// map.insert(1, ());
    /// assert_eq!(map.keys().collect::<Vec<_>>(), [&1, &2]);
    /// ```
    pub fn keys(&self) -> impl Iterator<Item = &K> {
        self.entries.iter().map(|(k, _)| k)
    }

    /// Values in key order.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedMap;
    /// let mut map = SortedMap::new();
    /// map.insert(2, "b");
    /// map.insert(1, "a");
    /// assert_eq!(map.values().collect::<Vec<_>>(), [&"a", &"b"]);
    /// ```
    pub fn values(&self) -> impl Iterator<Item = &V> {
        self.entries.iter().map(|(_, v)| v)
    }
}

impl<K, V> IntoIterator for SortedMap<K, V> {
    type Item = (K, V);
    type IntoIter = std::vec::IntoIter<(K, V)>;

    /// Entries in key order, by value.
    fn into_iter(self) -> Self::IntoIter {
        self.entries.into_iter()
    }
}

/// A set of ordered keys, stored sorted in one `Vec`.
///
/// ```
/// # use renderer_steering::core::sorted_map::SortedSet;
/// let mut set = SortedSet::new();
/// set.extend([2, 1, 2]);
/// assert_eq!(set.into_iter().collect::<Vec<_>>(), [1, 2]);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct SortedSet<K>(SortedMap<K, ()>);

impl<K> Default for SortedSet<K> {
    fn default() -> Self {
        SortedSet(SortedMap::default())
    }
}

impl<K: Ord> SortedSet<K> {
    /// An empty set.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedSet;
    /// let set: SortedSet<u32> = SortedSet::new();
    /// assert!(!set.contains(&1));
    /// ```
    pub const fn new() -> Self {
        SortedSet(SortedMap::new())
    }

    /// Adds `key`; returns whether it was new.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedSet;
    /// let mut set = SortedSet::new();
    /// assert!(set.insert(1));
    /// assert!(!set.insert(1));
    /// ```
    pub fn insert(&mut self, key: K) -> bool {
        self.0.insert(key, ()).is_none()
    }

    /// Whether `key` is present.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedSet;
    /// let mut set = SortedSet::new();
    /// set.insert("a".to_string());
    /// assert!(set.contains("a"));
    /// ```
    pub fn contains<Q: Ord + ?Sized>(&self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.0.contains_key(key)
    }

    /// Removes `key`; returns whether it was there.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedSet;
    /// let mut set = SortedSet::new();
    /// set.insert(1);
    /// assert!(set.remove(&1));
    /// assert!(!set.remove(&1));
    /// ```
    pub fn remove<Q: Ord + ?Sized>(&mut self, key: &Q) -> bool
    where
        K: Borrow<Q>,
    {
        self.0.remove(key).is_some()
    }

    /// Drops every key.
    ///
    /// ```
    /// # use renderer_steering::core::sorted_map::SortedSet;
    /// let mut set = SortedSet::new();
    /// set.insert(1);
    /// set.clear();
    /// assert!(!set.contains(&1));
    /// ```
    pub fn clear(&mut self) {
        self.0.clear();
    }
}

impl<K: Ord> Extend<K> for SortedSet<K> {
    fn extend<I: IntoIterator<Item = K>>(&mut self, keys: I) {
        for key in keys {
            self.insert(key);
        }
    }
}

impl<K> IntoIterator for SortedSet<K> {
    type Item = K;
    type IntoIter = std::iter::Map<std::vec::IntoIter<(K, ())>, fn((K, ())) -> K>;

    fn into_iter(self) -> Self::IntoIter {
        self.0.entries.into_iter().map(|(k, ())| k)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn behaves_like_a_btree_map() {
        let mut map = SortedMap::new();
        let mut model = std::collections::BTreeMap::new();
        let mut seed = 7u32;
        for _ in 0..2_000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let key = (seed >> 16) % 64;
            match seed % 4 {
                0 | 1 => assert_eq!(map.insert(key, seed), model.insert(key, seed)),
                2 => assert_eq!(map.remove(&key), model.remove(&key)),
                _ => assert_eq!(map.get(&key), model.get(&key)),
            }
            assert_eq!(map.len(), model.len());
        }
        assert!(map.iter().eq(model.iter()));
        map.retain(|k, _| k % 2 == 0);
        model.retain(|k, _| k % 2 == 0);
        assert!(map.keys().eq(model.keys()));
        assert_eq!(*map.get_or_insert_with(1_000, || 5), 5);
        assert_eq!(*map.get_or_insert_with(1_000, || 6), 5);
    }

    #[test]
    fn sets_keep_one_copy_in_order() {
        let mut set = SortedSet::new();
        set.extend(["b".to_string(), "a".to_string(), "b".to_string()]);
        assert!(set.contains("a") && !set.contains("c"));
        assert!(set.remove("a") && !set.remove("a"));
        assert_eq!(set.into_iter().collect::<Vec<_>>(), vec!["b".to_string()]);
    }
}
