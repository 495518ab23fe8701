import NimbusTerminal
import OpenCombineShim

/// A key and what it does, as the status bar shows it.
public struct KeyHint: Equatable, Sendable {
    public let key: String
    public let label: String
    public init(_ key: String, _ label: String) {
        self.key = key
        self.label = label
    }
}

/// One screen of a tab's navigation stack.
///
/// A screen draws its view model's latest state and forwards keys to the view model's inputs.
@MainActor
public protocol Screen: KeyScope {
    /// Draws the screen into the area between the tab bar and the status bar.
    func draw(_ painter: Painter, theme: Theme)
    /// The screen's key bindings in its current state (`KeyScope`): the app dispatches keys from
    /// them and makes the status bar's hints and the help from them, so the help shows exactly what
    /// works.
    var bindings: [Binding] { get }
    /// Edits the focused text field (while `capturesText`): the one key path that is not a binding.
    /// Returns false when the field has no use for the key.
    func handle(_ key: Key) -> Bool
    /// Handles a click, the wheel or a drag on the screen's body (coordinates relative to the body);
    /// returns false when the screen has no use for it. Default: none.
    func handle(_ pointer: Pointer) -> Bool
    /// What `y` copies (OSC 52): the selected thing as one line of text; nil when nothing is selected.
    var copyText: String? { get }
    /// True while the screen asks a question that must be answered first (the wishlist's "delete
    /// all?"): a click on a tab's title does not leave it. Default: false.
    var isAsking: Bool { get }
    /// True while a text field has focus: printable keys (`q`, digits) are then text, not commands.
    var capturesText: Bool { get }
    /// Fires whenever what the screen draws has changed (its view model's state): the navigator asks
    /// for a frame while the screen is shown.
    var changes: AnyPublisher<Void, Never> { get }
    /// Called once the frame the screen last drew is on the terminal: the place for work the
    /// frame does not wait for (telling the view model which rows are now on screen).
    func frameShown()
    /// Called when the screen is on top again: its tab was selected, or the screen above it closed.
    /// (A screen's first appearance is its making.)
    func didAppear()
    /// Called when the screen stops being on top: another tab was selected, or a screen was pushed over it.
    func didDisappear()
}

public extension Screen {
    var bindings: [Binding] { [] }
    func perform(_ command: BoundCommand, key: Key) -> Bool { false }
    /// No text field: every key is a binding.
    func handle(_ key: Key) -> Bool { false }
    var changes: AnyPublisher<Void, Never> { Empty().eraseToAnyPublisher() }
    func handle(_ pointer: Pointer) -> Bool { false }
    var copyText: String? { nil }
    var isAsking: Bool { false }
    func frameShown() {}
    func didAppear() {}
    func didDisappear() {}
}
