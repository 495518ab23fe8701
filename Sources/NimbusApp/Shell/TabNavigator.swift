import NimbusUI

/// Tabs, each with its own stack of screens; switching tabs keeps every stack as it was.
final class TabNavigator {
    struct Tab {
        let title: String
        var stack: [Screen]
        /// Where the tab's data comes from, for the status bar; nil for the app-wide text.
        var source: String? = nil
    }

    private(set) var tabs: [Tab] = []
    private(set) var active = 0
    var onChange: (() -> Void)?

    func addTab(title: String, root: Screen, source: String? = nil) {
        tabs.append(Tab(title: title, stack: [], source: source))
        push(root, onTab: tabs.count - 1)
    }

    var top: Screen? { tabs.indices.contains(active) ? tabs[active].stack.last : nil }

    /// The active tab's own status-bar source, if it has one.
    var activeSource: String? { tabs.indices.contains(active) ? tabs[active].source : nil }

    func select(_ index: Int) {
        guard tabs.indices.contains(index), index != active else { return }
        active = index
        onChange?()
    }

    func selectNext(_ step: Int) {
        guard !tabs.isEmpty else { return }
        select(((active + step) % tabs.count + tabs.count) % tabs.count)
    }

    func push(_ screen: Screen, onTab index: Int) {
        screen.onNeedsDisplay = { [weak self] in self?.onChange?() }
        tabs[index].stack.append(screen)
        onChange?()
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
        onChange?()
        return true
    }
}
