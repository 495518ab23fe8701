import NimbusPresentation
import NimbusUI
import OpenCombineShim

/// Tabs, each with its own stack of screens; switching tabs keeps every stack as it was.
///
/// A tab's root screen is made the first time the tab is shown (or something is pushed on it), so
/// start-up pays only for the first tab: the others' databases and catalogues are opened when needed.
@MainActor
final class TabNavigator {
    struct Tab {
        /// The tab bar's name for it, said in the app's language when drawn.
        let title: L10nKey
        var stack: [Screen]
        let makeRoot: () -> Screen
        /// Where the tab's data comes from, for the status bar; nil for the app-wide text.
        let source: () -> String?
    }

    private(set) var tabs: [Tab] = []
    private(set) var active = 0
    /// Set when the tabs change and, by the screens themselves, when a screen needs drawing again.
    let needsDisplay: NeedsDisplay
    /// Called when another tab is selected, before its screen is shown.
    var willShowTab: ((Int) -> Void)?

    /// The shown screen's changes: each one asks for a frame.
    private var shownChanges: AnyCancellable?
    private weak var observed: Screen?

    init(needsDisplay: NeedsDisplay = NeedsDisplay()) {
        self.needsDisplay = needsDisplay
    }

    /// Redraws on the shown screen's changes, and only its: a screen under another, or on another
    /// tab, changes nothing on the terminal.
    private func observeTop() {
        guard let top, top !== observed else { return }
        observed = top
        shownChanges = top.changes.sink { [needsDisplay] in needsDisplay.set() }
    }

    /// Adds a tab whose root `makeRoot` makes when the tab is first shown; returns the tab's index.
    @discardableResult
    func addTab(title: L10nKey, source: @escaping () -> String? = { nil }, root makeRoot: @escaping () -> Screen) -> Int {
        tabs.append(Tab(title: title, stack: [], makeRoot: makeRoot, source: source))
        let index = tabs.count - 1
        if index == active { materializeRoot(index) }
        return index
    }

    var top: Screen? { tabs.indices.contains(active) ? tabs[active].stack.last : nil }

    /// The active tab's own status-bar source, if it has one.
    var activeSource: String? { tabs.indices.contains(active) ? tabs[active].source() : nil }

    /// True once the tab's root screen has been made.
    func isMaterialized(_ index: Int) -> Bool { tabs.indices.contains(index) && !tabs[index].stack.isEmpty }

    func select(_ index: Int) {
        guard tabs.indices.contains(index), index != active else { return }
        top?.didDisappear()
        active = index
        willShowTab?(index)
        if isMaterialized(index) { top?.didAppear() } else { materializeRoot(index) }
        observeTop()
        needsDisplay.set()
    }

    private func materializeRoot(_ index: Int) {
        guard tabs.indices.contains(index), tabs[index].stack.isEmpty else { return }
        let root = tabs[index].makeRoot()
        tabs[index].stack = [root]
        if index == active { observeTop() }
    }

    func selectNext(_ step: Int) {
        guard !tabs.isEmpty else { return }
        select(((active + step) % tabs.count + tabs.count) % tabs.count)
    }

    func push(_ screen: Screen, onTab index: Int) {
        materializeRoot(index)
        if index == active { top?.didDisappear() }
        tabs[index].stack.append(screen)
        if index == active { observeTop() }
        needsDisplay.set()
    }

    /// Pops the active tab's top screen; the root stays. Returns false when there was nothing to pop.
    @discardableResult
    func pop() -> Bool {
        pop(onTab: active)
    }

    /// Pops the top screen of tab `index`; the root stays.
    @discardableResult
    func pop(onTab index: Int) -> Bool {
        guard tabs.indices.contains(index), tabs[index].stack.count > 1 else { return false }
        tabs[index].stack.removeLast()
        if index == active {
            top?.didAppear()
            observeTop()
        }
        needsDisplay.set()
        return true
    }
}
