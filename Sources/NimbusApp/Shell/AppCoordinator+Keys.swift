import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The app's own keys: its commands (tabs, help, settings, copy, quit), going back, and the keys
/// that work everywhere; the help and the status bar are made from the same lists.
extension AppCoordinator {
    /// The app's commands, in every screen whose keys are bindings (outside its text field).
    var commands: [Binding] {
        var list: [Binding] = []
        if navigator.tabs.count > 1 {
            let digits = (1...navigator.tabs.count).map { Key.char(Character(String($0))) }
            list.append(Binding(digits, "1-\(navigator.tabs.count)", help: l10n[.helpKeyTabs], hint: l10n[.hintTabs]) {
                [unowned self] key in
                guard case .char(let c) = key, let n = c.wholeNumberValue else { return false }
                navigator.select(n - 1)
                return true
            })
            list.append(Binding([.tab, .backTab], "Tab S-Tab", help: l10n[.helpKeyTabnext]) { [unowned self] key in
                navigator.selectNext(key == .tab ? 1 : -1)
                return true
            })
        }
        list += [
            Binding(.char("?"), help: l10n[.helpKeyHelp], hint: l10n[.hintHelp]) { [unowned self] in openHelp() },
            Binding([.char(","), .function(2)], ", F2", help: l10n[.helpKeySettings]) { [unowned self] in openSettings() },
            Binding([.char("y")], "y", help: l10n[.helpKeyCopy]) { [unowned self] _ in copySelection() },
            Binding(.char("q"), help: l10n[.helpKeyQuit], hint: l10n[.hintQuit]) { [unowned self] in quitRequested = true },
        ]
        return list
    }

    /// Keys no scope took: Esc and Backspace go back when there is a screen to go back to (and the
    /// screen does not use them itself).
    func fallbacks(for own: [Binding]) -> [Binding] {
        guard navigator.tabs.indices.contains(navigator.active), navigator.tabs[navigator.active].stack.count > 1,
              Binding.find(.escape, in: own) == nil else { return [] }
        return [Binding([.escape, .backspace], "Esc Backspace", help: l10n[.helpKeyBack], hint: l10n[.hintBack], hintKey: "Esc") {
            [unowned self] in navigator.pop()
        }]
    }

    /// Keys that work everywhere, a text field included (handled before any scope; listed in the help).
    private var alwaysGlobal: [KeyHint] {
        [KeyHint("Ctrl-C", l10n[.helpKeyCtrlc]), KeyHint("Ctrl-L", l10n[.helpKeyRedraw]), KeyHint("F12", l10n[.helpKeyDebug])]
    }

    /// `?`: the shown screen's keys and the app's, from their bindings.
    func openHelp() {
        let mouse = mouseWanted ? [
            KeyHint(l10n[.helpMouseClick], l10n[.helpMouseClickLabel]),
            KeyHint(l10n[.helpMouseWheel], l10n[.helpMouseWheelLabel]),
            KeyHint(l10n[.helpMouseShift], l10n[.helpMouseShiftLabel]),
        ] : []
        let screen: [KeyHint]
        let global: [KeyHint]
        if let top = navigator.top, !top.bindings.isEmpty {
            screen = (fallbacks(for: top.bindings) + top.bindings).map(\.keyHint)
            global = commands.map(\.keyHint) + alwaysGlobal + mouse
        } else {
            let tabs = navigator.tabs.count > 1 ? [
                KeyHint("1-\(navigator.tabs.count)", l10n[.helpKeyTabs]),
                KeyHint("Tab S-Tab", l10n[.helpKeyTabnext]),
            ] : []
            global = tabs + [
                KeyHint("?", l10n[.helpKeyHelp]),
                KeyHint(", F2", l10n[.helpKeySettings]),
                KeyHint("y", l10n[.helpKeyCopy]),
                KeyHint("q", l10n[.helpKeyQuit]),
            ] + alwaysGlobal + mouse
            screen = navigator.top?.help ?? []
        }
        let entries = { (hints: [KeyHint]) in hints.map { HelpEntry(key: $0.key, label: $0.label) } }
        overlays.push(HelpOverlay(viewModel: HelpViewModel(screen: entries(screen), global: entries(global), l10n: l10n), l10n: l10n))
    }

    /// What is wrong with the keys in force now: a key bound twice in one scope (the top overlay's,
    /// or the app's commands with the shown screen's), or a hint shown with no key. Empty when all is well.
    public var bindingProblems: [String] {
        var scopes: [[Binding]] = []
        if let top = overlays.top {
            scopes = [top.bindings]
        } else if let screen = navigator.top, !screen.bindings.isEmpty {
            scopes = screen.capturesText ? [screen.bindings] : [commands, screen.bindings]
        }
        let twice = BindingConflicts.duplicates(scopes).map { key, claims in
            "\(Binding.name(key)) is bound \(claims.count) times: " + claims.joined(separator: " / ")
        }
        return twice + BindingConflicts.unbound(scopes.flatMap { $0 }).map { "the hint “\($0)” has no key" }
    }

    // MARK: Screens whose keys are not yet bindings

    /// The status bar of a screen that lists its own hints.
    func legacyHints(_ screen: Screen) -> [(key: String, label: String)] {
        var hints = screen.hints.map { (key: $0.key, label: $0.label) }
        if navigator.tabs.count > 1, !screen.capturesText {
            hints.insert((key: "1-\(navigator.tabs.count)", label: l10n[.hintTabs]), at: min(2, hints.count))
        }
        return hints
    }

    func handleGlobal(_ key: Key) -> Bool {
        switch key {
        case .char("q"):
            quitRequested = true
            return true
        case .char("?"):
            openHelp()
            return true
        case .char(","):
            openSettings()
            return true
        case .char("y"):
            return copySelection()
        case .char(let c) where c.isASCII && c.isNumber:
            guard let n = c.wholeNumberValue, n >= 1, n <= navigator.tabs.count else { return false }
            navigator.select(n - 1)
            return true
        default:
            return handleTabKeys(key)
        }
    }

    @discardableResult
    func handleTabKeys(_ key: Key) -> Bool {
        switch key {
        case .tab: navigator.selectNext(1); return true
        case .backTab: navigator.selectNext(-1); return true
        default: return false
        }
    }
}
