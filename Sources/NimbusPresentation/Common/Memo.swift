/// A value made from a key, kept while the key stays the same: a view model's `present` keeps what
/// it made for the last state and makes again only the parts whose inputs the new state changed (a
/// move of the selection formats no row). The key holds everything the value is made from, so what
/// is shown is what the state alone would show.
struct Memo<Key: Equatable, Value> {
    let key: Key
    let value: Value

    /// `previous`'s value when it was made from `key`, else `make()`.
    init(_ key: Key, after previous: Memo?, make: () -> Value) {
        self.key = key
        if let previous, previous.key == key {
            value = previous.value
        } else {
            value = make()
        }
    }
}
