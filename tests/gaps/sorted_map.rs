//! The engines' keyed container (`core::sorted_map`): emptiness follows the
//! entries, not the history.

use renderer_steering::core::sorted_map::SortedMap;

#[test]
fn a_map_is_empty_exactly_when_it_holds_no_entry() {
    let mut map = SortedMap::new();
    assert!(map.is_empty());
    map.insert("b", 2);
    assert!(!map.is_empty());
    map.remove("b");
    assert!(map.is_empty());
}
