import NimbusTerminal

/// A place keys go to (a screen, a panel of one, an overlay): its bindings for its current state,
/// as data, and the one function that carries out what they send. The app dispatches keys, makes
/// the status bar and the help, and walks for conflicts from `bindings`; only `perform` acts.
@MainActor
public protocol KeyScope: AnyObject {
    /// The bindings in force now, in the order the help and the bar list them.
    var bindings: [Binding] { get }
    /// Carries out `command`, the command of one of `bindings`, for the key pressed. Returns false
    /// when it had nothing to do (the key then goes on to the next scope, as if unbound).
    func perform(_ command: BoundCommand, key: Key) -> Bool
}

public extension KeyScope {
    /// Presses `key` in `bindings` (this scope's, already listed).
    func press(_ key: Key, in bindings: [Binding]) -> Binding.Press {
        Binding.press(key, in: bindings) { perform($0, key: $1) }
    }

    /// Presses `key` in this scope's bindings.
    func press(_ key: Key) -> Binding.Press { press(key, in: bindings) }
}
