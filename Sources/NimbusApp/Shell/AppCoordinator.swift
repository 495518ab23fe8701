import Foundation
import NimbusData
import NimbusPresentation
import NimbusTerminal
import NimbusUI
import OpenCombineShim

/// Owns the tabs, the global keys and the frame around the active screen.
@MainActor
public final class AppCoordinator {
    /// The smallest terminal the app lays out in; below it a notice is shown instead.
    public static let minimumSize = Size(cols: 40, rows: 10)

    private let container: AppDIContainer
    private let navigator: TabNavigator
    private var children: [AnyObject] = []
    private var showingHelp = false
    /// The help overlay's first line shown, and the largest that still fills it (from the last frame).
    private var helpScroll = 0
    private var helpMaxScroll = 0
    private var lastHelpPage = 1
    private var showingMapStats = false
    /// The help overlay's filter: what was typed, and whether keys still go into it.
    private var helpFilter = ""
    private var helpFilterTyping = false
    private let l10n: L10n
    /// The retry the status bar counts down to (see `retriesChanged`), and what keeps it counting.
    private var retryWait: HTTPRetryWait?
    private var retryObservation: AnyCancellable?
    private var retryTicker: Cancellable?
    /// Looks for changes another process made to the user's data (see `watchUserData`).
    private var userDataTicker: Cancellable?
    /// How often the user database is checked for another process's changes while the app runs.
    static let userDataCheckInterval = DispatchQueue.SchedulerTimeType.Stride.seconds(2)
    /// The settings overlay (`,` or F2), while it is open.
    private var settings: SettingsOverlay?
    /// The config file's problem stays on the status bar until the settings are opened.
    private var configNoticeSeen = false
    /// The frame's size and where each tab's title was drawn (from the last `render`), for clicks.
    private var lastSize = Size(cols: 0, rows: 0)
    private var tabColumns: [(tab: Int, columns: Range<Int>)] = []
    /// The last left press (to count double clicks) and where the held button last was (for drags).
    private var lastPress: (at: Point, time: Date, count: Int)?
    private var dragAt: Point?
    /// What `y` copied, shown on the status bar until the next key.
    private var statusMessage: String?
    /// Where `y` sends text: the terminal's clipboard (OSC 52), set by `AppLoop`.
    public var copyToClipboard: ((String) -> Void)?
    /// Two presses on one cell within this time are a double click.
    static let doubleClickInterval: TimeInterval = 0.4

    /// Where the user is: the active tab, how many screens deep, and whether an overlay (help, the
    /// map cache statistics) covers the screen. For tests that check what the screen must show.
    public struct Place: Equatable, Sendable {
        public let tab: Int
        public let depth: Int
        public let overlay: Bool
        /// A text field (or a question) on the screen takes printable keys as text.
        public let capturesText: Bool
        /// The screen asks something over its own rows (the wishlist's "delete all?", a film filter's picker).
        public let asking: Bool
    }

    public var place: Place {
        Place(tab: navigator.active, depth: navigator.tabs.indices.contains(navigator.active)
                ? navigator.tabs[navigator.active].stack.count : 0,
              overlay: showingHelp || showingMapStats || settings != nil,
              capturesText: settings?.capturesText ?? navigator.top?.capturesText ?? false,
              asking: navigator.top?.isAsking ?? false)
    }

    /// Set when the user asked to quit.
    public private(set) var quitRequested = false
    /// Set whenever the frame needs drawing again (by the screens, the tabs and the overlays);
    /// the app loop reads and clears it.
    public let needsDisplay = NeedsDisplay()
    /// Called for Ctrl-Z.
    public var onSuspendRequested: (() -> Void)?

    public init(container: AppDIContainer) {
        self.container = container
        self.l10n = container.l10n
        navigator = TabNavigator(needsDisplay: needsDisplay)
    }

    /// Whether the terminal should report the mouse: the Mouse setting as it is now (the app loop
    /// tells the terminal when it changes).
    public var mouseWanted: Bool { container.preferences.mouse }

    /// The warm-up of the container's shared services, for a background queue (see `WarmUp`).
    public var warmUp: WarmUp { container.warmUp }

    /// The part of the warm-up that draws; main thread only, after the first frame.
    public func rehearseTyping() { container.rehearseTyping() }

    public func start() {
        let cities = CitiesCoordinator(navigator: navigator, dependencies: container.makeCitiesSceneDIContainer())
        cities.start(title: l10n[.tabCities])
        children.append(cities)
        let quakeScenes = container.makeQuakesSceneDIContainer()
        let movieScenes = container.makeMoviesSceneDIContainer()
        let today = TodayCoordinator(navigator: navigator,
                                     dependencies: container.makeTodaySceneDIContainer(quakes: quakeScenes, movies: movieScenes))
        today.start(title: l10n[.tabToday])
        children.append(today)
        let liked = LikedCoordinator(navigator: navigator, dependencies: container.makeLikedSceneDIContainer())
        liked.start(title: l10n[.tabLiked])
        children.append(liked)
        let quakes = QuakesCoordinator(navigator: navigator, dependencies: quakeScenes)
        quakes.start(title: l10n[.tabQuakes])
        children.append(quakes)
        // Tabs in their fixed order: 1 Cities, 2 Today, 3 Liked, 4 Quakes, 5 Movies, 6 Wishlist.
        let movies = MoviesCoordinator(navigator: navigator, dependencies: movieScenes)
        movies.start(title: l10n[.tabMovies])
        children.append(movies)
        let wishlist = WishlistCoordinator(navigator: navigator, dependencies: movieScenes)
        wishlist.start(title: l10n[.tabWishlist])
        children.append(wishlist)
        observeRetries()
        watchUserData()
        let opening = container.preferences.defaultTab
        if opening > 1, opening <= navigator.tabs.count { navigator.select(opening - 1) }
    }

    private func openSettings() {
        settings = SettingsOverlay(container: container, tabTitles: { [unowned self] in navigator.tabs.map(\.title) })
        configNoticeSeen = true
        needsDisplay.set()
    }

    // MARK: Other processes' changes

    /// What another process saves (`nimbus wishlist import`, a second window's likes) shows here too:
    /// the stores read the user database again when it changed, checked when a tab is shown and every
    /// `userDataCheckInterval` on the app's scheduler (the virtual clock in tapes and tests).
    private func watchUserData() {
        let container = self.container
        navigator.willShowTab = { _ in container.refreshUserDataChangedElsewhere() }
        let scheduler = container.configuration.scheduler
        userDataTicker = scheduler.schedule(after: scheduler.now.advanced(by: Self.userDataCheckInterval),
                                            interval: Self.userDataCheckInterval) {
            [weak self] in MainActor.assumeIsolated { self?.container.refreshUserDataChangedElsewhere() }
        }
    }

    // MARK: Retries

    /// The network's retries, heard on any thread, handled on the app's scheduler (the main queue).
    private func observeRetries() {
        let scheduler = container.configuration.scheduler
        retryObservation = container.retryStatus.observe { [weak self] in
            scheduler.schedule { MainActor.assumeIsolated { self?.retriesChanged() } }
        }
    }

    /// A retry began or went out: the status bar says how long the last one waiting has left,
    /// redrawn each second while any waits, and goes back to the tab's source when none does.
    private func retriesChanged() {
        retryWait = container.retryStatus.latest
        let scheduler = container.configuration.scheduler
        if retryWait == nil {
            retryTicker?.cancel()
            retryTicker = nil
        } else if retryTicker == nil {
            retryTicker = scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1)), interval: .seconds(1)) {
                [weak self] in MainActor.assumeIsolated { self?.needsDisplay.set() }
            }
        }
        needsDisplay.set()
    }

    /// "rate limited, retrying in 12 s" while a retry waits.
    var retryMessage: String? {
        guard let retryWait else { return nil }
        let seconds = l10n.number(max(1, retryWait.secondsLeft(at: container.configuration.scheduler.now)))
        switch retryWait.reason {
        case .rateLimited: return l10n.format(.statusRetryRateLimited, seconds)
        case .unavailable: return l10n.format(.statusRetryUnavailable, seconds)
        case .connectionFailed: return l10n.format(.statusRetryConnection, seconds)
        }
    }

    // MARK: Keys

    /// Dispatches a key in phases: always-global keys, the help overlay, the screen's text field,
    /// global commands, the screen, then the screen's fallbacks.
    public func handle(_ key: Key) {
        if case .mouse(let event) = key {
            handleMouse(event)
            return
        }
        if statusMessage != nil {
            statusMessage = nil
            needsDisplay.set()
        }
        switch key {
        case .ctrl("c"):
            quitRequested = true
            return
        case .ctrl("l"):
            needsDisplay.setFullRedraw() // the next frame clears the screen and repaints it all
            return
        case .ctrl("z"):
            // The terminal is in raw mode, so Ctrl-Z arrives as a key rather than as SIGTSTP.
            onSuspendRequested?()
            return
        case .function(12):
            showingMapStats.toggle()
            needsDisplay.set()
            return
        default:
            break
        }
        if let settings {
            if !settings.handle(key) { self.settings = nil }
            // Units, clock and theme changes show on every screen from this frame on.
            needsDisplay.setFullRedraw()
            return
        }
        if key == .function(2), !showingHelp {
            openSettings()
            return
        }
        // The map cache overlay stays up while browsing; only Esc closes it.
        if showingMapStats, key == .escape, !showingHelp {
            showingMapStats = false
            needsDisplay.set()
            return
        }
        if showingHelp {
            handleHelp(key)
            return
        }
        guard let screen = navigator.top else { return }
        if screen.capturesText {
            if screen.handle(key) { return }
            handleTabKeys(key)
            return
        }
        if handleGlobal(key) { return }
        if screen.handle(key) { return }
        if key == .escape || key == .backspace { navigator.pop() }
    }

    /// The help overlay takes every key while it is open: it scrolls, filters as you type (`/` or a
    /// letter starts the filter, Backspace edits it, Enter keeps it), and `?`, `q`, `Esc` or `Enter`
    /// close it (as htop's help does; `q` does not quit from there). Esc first clears a filter.
    private func handleHelp(_ key: Key) {
        if helpFilterTyping {
            switch key {
            case .char(let c):
                helpFilter.append(c)
                helpScroll = 0
            case .paste(let text):
                helpFilter += text
                helpScroll = 0
            case .backspace:
                if helpFilter.isEmpty { helpFilterTyping = false } else { helpFilter.removeLast() }
                helpScroll = 0
            case .ctrl("u"):
                helpFilter = ""
            case .enter:
                helpFilterTyping = false
            case .escape:
                helpFilter = ""
                helpFilterTyping = false
                helpScroll = 0
            default:
                scrollHelp(key)
            }
            needsDisplay.set()
            return
        }
        switch key {
        case .char("?"), .char("q"), .enter:
            closeHelp()
        case .escape:
            if helpFilter.isEmpty { closeHelp() } else { helpFilter = ""; helpScroll = 0 }
        case .char("/"):
            helpFilterTyping = true
        case .char(let c) where c.isLetter || c.isNumber:
            helpFilterTyping = true
            helpFilter.append(c)
            helpScroll = 0
        case .backspace where !helpFilter.isEmpty:
            helpFilterTyping = true
            helpFilter.removeLast()
            helpScroll = 0
        default:
            guard scrollHelp(key) else { return }
        }
        needsDisplay.set()
    }

    @discardableResult
    private func scrollHelp(_ key: Key) -> Bool {
        switch key {
        case .up: helpScroll -= 1
        case .down: helpScroll += 1
        case .pageUp: helpScroll -= lastHelpPage
        case .pageDown, .char(" "): helpScroll += lastHelpPage
        case .home: helpScroll = 0
        case .end: helpScroll = helpMaxScroll
        default: return false
        }
        helpScroll = min(max(0, helpScroll), helpMaxScroll)
        return true
    }

    private func openHelp() {
        showingHelp = true
        helpScroll = 0
        helpFilter = ""
        helpFilterTyping = false
        needsDisplay.set()
    }

    private func closeHelp() {
        showingHelp = false
        helpFilter = ""
        helpFilterTyping = false
    }

    // MARK: Mouse

    /// Turns a mouse report into a click (counted), a wheel notch or a drag step, and gives it to the
    /// help overlay, the tab bar or the screen under it.
    private func handleMouse(_ event: MouseEvent) {
        guard container.configuration.mouse else { return }
        let at = Point(x: event.x, y: event.y)
        // A click or the wheel is the next input: the message `y` left goes, as on a key.
        if statusMessage != nil, event.action != .release, event.action != .drag {
            statusMessage = nil
            needsDisplay.set()
        }
        let action: Pointer.Action
        switch (event.action, event.button) {
        case (.press, .left):
            let now = container.configuration.now()
            var count = 1
            if let last = lastPress, last.at == at, now.timeIntervalSince(last.time) <= Self.doubleClickInterval, last.count == 1 {
                count = 2
            }
            lastPress = (at, now, count)
            dragAt = at
            action = .click(count: count)
        case (.drag, .left):
            guard let from = dragAt, from != at else { return }
            dragAt = at
            action = .drag(dx: at.x - from.x, dy: at.y - from.y)
        case (.release, _):
            dragAt = nil
            return
        case (.wheelUp, _): action = .wheel(-1)
        case (.wheelDown, _): action = .wheel(1)
        default: return
        }
        if showingHelp {
            if case .wheel(let n) = action {
                helpScroll = min(max(0, helpScroll + n * ListState.wheelStep), helpMaxScroll)
                needsDisplay.set()
            }
            return
        }
        if showingMapStats { return }
        guard lastSize.rows >= Self.minimumSize.rows, lastSize.cols >= Self.minimumSize.cols else { return }
        if at.y == 0 {
            if case .click = action, navigator.top?.isAsking != true,
               let hit = tabColumns.first(where: { $0.columns.contains(at.x) }) {
                navigator.select(hit.tab)
            }
            return
        }
        guard at.y < lastSize.rows - 1, let screen = navigator.top else { return }
        _ = screen.handle(Pointer(action, x: at.x, y: at.y - 1, screen: at))
    }

    // MARK: Copy

    /// `y`: the screen's selected thing goes to the clipboard, and the status bar says what it was.
    private func copySelection() -> Bool {
        guard let text = navigator.top?.copyText else { return false }
        let clean = OSC52.sanitize(text)
        guard !clean.isEmpty else { return false }
        copyToClipboard?(clean)
        statusMessage = l10n.format(.copyDone, clean)
        needsDisplay.set()
        return true
    }

    private func handleGlobal(_ key: Key) -> Bool {
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
    private func handleTabKeys(_ key: Key) -> Bool {
        switch key {
        case .tab: navigator.selectNext(1); return true
        case .backTab: navigator.selectNext(-1); return true
        default: return false
        }
    }

    // MARK: Drawing

    private var theme: Theme { container.preferences.theme }

    /// Draws the whole frame for a terminal of `size`.
    public func render(size: Size) -> ScreenBuffer {
        let canvas = Canvas(size: size)
        let p = canvas.painter()
        lastSize = size
        if size.cols < Self.minimumSize.cols || size.rows < Self.minimumSize.rows {
            drawTooSmall(p, size: size)
            return canvas.buffer
        }
        tabColumns = TabBar.draw(p.sub(Rect(x: 0, y: 0, width: size.cols, height: 1)),
                    titles: navigator.tabs.map(\.title), active: navigator.active,
                    activeStyle: theme.tabActive, style: theme.tabBar)
        let body = p.sub(Rect(x: 0, y: 1, width: size.cols, height: size.rows - 2))
        navigator.top?.draw(body, theme: theme)
        var hints = (navigator.top?.hints ?? []).map { (key: $0.key, label: $0.label) }
        if navigator.tabs.count > 1, navigator.top?.capturesText == false {
            hints.insert((key: "1-\(navigator.tabs.count)", label: l10n[.hintTabs]), at: min(2, hints.count))
        }
        if !configNoticeSeen, container.configNotice != nil, settings == nil {
            // The config file's problem needs the room: only the key that opens the settings stays.
            hints = [(key: ",", label: l10n[.settingsTitle])]
        }
        StatusBar.draw(p.sub(Rect(x: 0, y: size.rows - 1, width: size.cols, height: 1)),
                       hints: hints, right: statusRight, style: theme.statusBar, keyStyle: theme.statusKey)
        if showingMapStats { drawMapStats(p) }
        settings?.draw(p, theme: theme)
        if showingHelp { drawHelp(p) }
        return canvas.buffer
    }

    /// The right of the status bar: the config file's problem until the settings are opened, else
    /// where the data comes from.
    private var statusRight: String {
        if let statusMessage { return statusMessage }
        if let retryMessage { return retryMessage }
        if !configNoticeSeen, let notice = container.configNotice { return notice }
        return navigator.activeSource ?? container.statusSource
    }

    /// The frame from the last `render` is on the terminal.
    public func frameShown() {
        navigator.top?.frameShown()
    }

    private func drawTooSmall(_ p: Painter, size: Size) {
        let detail = l10n.format(.tooSmallDetail, String(Self.minimumSize.cols), String(Self.minimumSize.rows),
                                 String(size.cols), String(size.rows))
        // Too narrow for one line: break after the list separator ("need …, have …") instead of cutting.
        var lines = [l10n[.tooSmall], detail]
        if DisplayWidth.of(detail) > size.cols, let cut = detail.range(of: ", ") ?? detail.range(of: "、") {
            lines = [l10n[.tooSmall], String(detail[..<cut.lowerBound]), String(detail[cut.upperBound...])]
        }
        let top = max(0, (size.rows - lines.count) / 2)
        for (i, line) in lines.enumerated() where top + i < size.rows {
            let shown = DisplayWidth.truncate(line, to: size.cols)
            p.text(shown, x: max(0, (size.cols - DisplayWidth.of(shown)) / 2), y: top + i, style: theme.warning)
        }
    }

    /// The map cache's counters (F12).
    private func drawMapStats(_ p: Painter) {
        let s = container.map.statistics
        let lines = [
            l10n.format(.debugHits, l10n.number(s.hits)),
            l10n.format(.debugMisses, l10n.number(s.misses)),
            l10n.format(.debugEvictions, l10n.number(s.evictions)),
            l10n.format(.debugRatio, l10n.number(Int((s.hitRatio * 100).rounded()))),
            l10n.format(.debugCount, l10n.number(s.count), l10n.number(s.countLimit)),
            l10n.format(.debugCost, l10n.number(s.totalCost), l10n.number(s.totalCostLimit)),
            "",
            l10n[.debugClose],
        ]
        Overlay.draw(p, title: l10n[.debugTitle], lines: lines, style: theme.overlay, borderStyle: theme.overlayBorder)
    }

    private func drawHelp(_ p: Painter) {
        let tabs = navigator.tabs.count > 1 ? [
            KeyHint("1-\(navigator.tabs.count)", l10n[.helpKeyTabs]),
            KeyHint("Tab S-Tab", l10n[.helpKeyTabnext]),
        ] : []
        let allGlobal = tabs + [
            KeyHint("?", l10n[.helpKeyHelp]),
            KeyHint(", F2", l10n[.helpKeySettings]),
            KeyHint("y", l10n[.helpKeyCopy]),
            KeyHint("q", l10n[.helpKeyQuit]),
            KeyHint("Ctrl-C", l10n[.helpKeyCtrlc]),
            KeyHint("Ctrl-L", l10n[.helpKeyRedraw]),
            KeyHint("F12", l10n[.helpKeyDebug]),
        ] + (container.configuration.mouse ? [
            KeyHint(l10n[.helpMouseClick], l10n[.helpMouseClickLabel]),
            KeyHint(l10n[.helpMouseWheel], l10n[.helpMouseWheelLabel]),
            KeyHint(l10n[.helpMouseShift], l10n[.helpMouseShiftLabel]),
        ] : [])
        let allScreen = navigator.top?.help ?? []
        let global = allGlobal.filter { Self.helpMatches($0, helpFilter) }
        let screen = allScreen.filter { Self.helpMatches($0, helpFilter) }
        let keyWidth = (global + screen).map { DisplayWidth.of($0.key) }.max() ?? 0
        // The box's inside is the screen less its border and padding; a label that does not fit
        // there wraps under itself rather than being cut.
        let inner = max(1, p.width - 4)
        func wrapped(_ h: KeyHint) -> [String] {
            let labelWidth = inner - keyWidth - 2
            guard labelWidth >= 8 else { return [DisplayWidth.pad(h.key, to: keyWidth) + "  " + h.label] }
            let wrapped = TextWrap.lines(h.label, width: labelWidth)
            return wrapped.enumerated().map { i, part in
                (i == 0 ? DisplayWidth.pad(h.key, to: keyWidth) : String(repeating: " ", count: keyWidth)) + "  " + part
            }
        }
        var lines: [String] = []
        if helpFilterTyping || !helpFilter.isEmpty {
            lines += [l10n.format(.helpFilterPrompt, helpFilter + (helpFilterTyping ? "▏" : "")), ""]
        }
        if !screen.isEmpty { lines += [l10n[.helpSectionScreen]] + screen.flatMap(wrapped) + [""] }
        if !global.isEmpty { lines += [l10n[.helpSectionGlobal]] + global.flatMap(wrapped) + [""] }
        if screen.isEmpty && global.isEmpty { lines += [l10n.format(.helpFilterNone, helpFilter), ""] }
        lines += TextWrap.lines(l10n[helpFilterTyping ? .helpFilterClose : .helpClose], width: inner)
        helpMaxScroll = Overlay.draw(p, title: l10n[.helpTitle], lines: lines, style: theme.overlay,
                                     borderStyle: theme.overlayBorder, scroll: helpScroll)
        helpScroll = min(helpScroll, helpMaxScroll)
        lastHelpPage = max(1, min(lines.count, p.height - 2) - 1)
    }

    /// A key matches the help filter when its key or its label contains every word of the filter,
    /// ignoring case and accents.
    static func helpMatches(_ hint: KeyHint, _ filter: String) -> Bool {
        let words = filter.split(separator: " ")
        guard !words.isEmpty else { return true }
        let text = (hint.key + " " + hint.label).folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)
        return words.allSatisfy { text.contains($0.folding(options: [.caseInsensitive, .diacriticInsensitive], locale: nil)) }
    }
}
