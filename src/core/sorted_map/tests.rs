//! The engines' keyed container: a sorted `Vec` that behaves like a
//! `BTreeMap`, and a set built on it.

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

#[test]
fn a_map_is_empty_exactly_when_it_holds_no_entry() {
    let mut map = SortedMap::new();
    assert!(map.is_empty());
    map.insert("b", 2);
    assert!(!map.is_empty());
    map.remove("b");
    assert!(map.is_empty());
}

#[test]
fn values_come_out_in_key_order_whatever_the_insertion_order() {
    let mut ops = SortedMap::new();
    ops.insert(2, "second");
    ops.insert(1, "first");
    assert_eq!(ops.values().copied().collect::<Vec<_>>(), ["first", "second"]);
}

#[test]
fn a_new_map_is_empty() {
    let map: SortedMap<u32, &str> = SortedMap::new();
    assert!(map.is_empty());
}

#[test]
fn len_counts_the_entries() {
    let mut map = SortedMap::new();
    map.insert(1, "a");
    assert_eq!(map.len(), 1);
}

#[test]
fn a_default_map_is_empty() {
    let map: SortedMap<u32, ()> = SortedMap::default();
    assert!(map.is_empty());
}

#[test]
fn clear_drops_every_entry() {
    let mut map = SortedMap::new();
    map.insert(1, "a");
    map.clear();
    assert!(map.is_empty());
}

#[test]
fn get_finds_an_owned_key_by_its_borrowed_form() {
    let mut map = SortedMap::new();
    map.insert("t".to_string(), 1);
    assert_eq!(map.get("t"), Some(&1));
}

#[test]
fn get_mut_changes_the_stored_value() {
    let mut map = SortedMap::new();
    map.insert(1, 1);
    *map.get_mut(&1).unwrap() += 1;
    assert_eq!(map.get(&1), Some(&2));
}

#[test]
fn contains_key_sees_an_inserted_key() {
    let mut map = SortedMap::new();
    map.insert(1, ());
    assert!(map.contains_key(&1));
}

#[test]
fn insert_returns_the_value_it_replaced() {
    let mut map = SortedMap::new();
    assert_eq!(map.insert(1, "a"), None);
    assert_eq!(map.insert(1, "b"), Some("a"));
}

#[test]
fn get_or_insert_with_makes_the_value_when_absent() {
    let mut map: SortedMap<u32, Vec<u32>> = SortedMap::new();
    map.get_or_insert_with(1, Vec::new).push(7);
    assert_eq!(map.get(&1), Some(&vec![7]));
}

#[test]
fn remove_takes_the_value_out_once() {
    let mut map = SortedMap::new();
    map.insert(1, "a");
    assert_eq!(map.remove(&1), Some("a"));
    assert_eq!(map.remove(&1), None);
}

#[test]
fn retain_keeps_only_the_accepted_entries() {
    let mut map = SortedMap::new();
    map.insert(1, "a");
    map.insert(2, "b");
    map.retain(|k, _| *k > 1);
    assert_eq!(map.len(), 1);
}

#[test]
fn iter_yields_entries_in_key_order() {
    let mut map = SortedMap::new();
    map.insert(2, "b");
    map.insert(1, "a");
    assert_eq!(map.iter().collect::<Vec<_>>(), [(&1, &"a"), (&2, &"b")]);
}

#[test]
fn keys_come_out_in_order() {
    let mut map = SortedMap::new();
    map.insert(2, ());
    map.insert(1, ());
    assert_eq!(map.keys().collect::<Vec<_>>(), [&1, &2]);
}

#[test]
fn values_follow_the_key_order() {
    let mut map = SortedMap::new();
    map.insert(2, "b");
    map.insert(1, "a");
    assert_eq!(map.values().collect::<Vec<_>>(), [&"a", &"b"]);
}

#[test]
fn a_set_keeps_one_copy_of_each_key_in_order() {
    let mut set = SortedSet::new();
    set.extend([2, 1, 2]);
    assert_eq!(set.into_iter().collect::<Vec<_>>(), [1, 2]);
}

#[test]
fn a_new_set_contains_nothing() {
    let set: SortedSet<u32> = SortedSet::new();
    assert!(!set.contains(&1));
}

#[test]
fn set_insert_says_whether_the_key_was_new() {
    let mut set = SortedSet::new();
    assert!(set.insert(1));
    assert!(!set.insert(1));
}

#[test]
fn a_set_finds_an_owned_key_by_its_borrowed_form() {
    let mut set = SortedSet::new();
    set.insert("a".to_string());
    assert!(set.contains("a"));
}

#[test]
fn set_remove_says_whether_the_key_was_there() {
    let mut set = SortedSet::new();
    set.insert(1);
    assert!(set.remove(&1));
    assert!(!set.remove(&1));
}

#[test]
fn set_clear_drops_every_key() {
    let mut set = SortedSet::new();
    set.insert(1);
    set.clear();
    assert!(!set.contains(&1));
}
