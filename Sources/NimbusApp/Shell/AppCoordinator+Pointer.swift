import NimbusPresentation
import NimbusTerminal
import NimbusUI

/// The mouse, `y` and the overlays the app opens itself (settings, map statistics): what the
/// coordinator's dispatch calls.
extension AppCoordinator {
    /// Turns a mouse report into a click (counted), a wheel notch or a drag step, and gives it to the
    /// top overlay, the tab bar or the screen under it. Taken exactly while the Mouse setting is on,
    /// as the terminal is asked to report it.
    func handleMouse(_ event: MouseEvent) {
        guard mouseWanted else { return }
        // A click or the wheel is the next input: the message `y` left goes, as on a key.
        if statusMessage != nil || settingsNotice != nil, event.action != .release, event.action != .drag {
            statusMessage = nil
            settingsNotice = nil
            needsDisplay.set()
        }
        guard let (action, at) = gestures.gesture(event, at: container.configuration.now()) else { return }
        if overlays.handle(Pointer(action, x: at.x, y: at.y, screen: at)) { return }
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

    /// `y`: the screen's selected thing goes to the clipboard, and the status bar says what it was.
    func copySelection() -> Bool {
        guard let text = navigator.top?.copyText else { return false }
        let clean = OSC52.sanitize(text)
        guard !clean.isEmpty else { return false }
        copyToClipboard?(clean)
        statusMessage = l10n.format(.copyDone, clean)
        needsDisplay.set()
        return true
    }

    /// `,` or F2.
    func openSettings() {
        overlays.push(container.makeSettingsOverlay(tabTitles: navigator.tabs.map(\.title)))
    }

    /// F12: the map cache's counters over whatever is shown, read each second; F12 again closes them.
    func toggleMapStats() {
        if overlays.contains(MapStatsOverlay.self) {
            overlays.removeAll(MapStatsOverlay.self)
            return
        }
        let tick = container.configuration.scheduler.timerPublisher(every: .seconds(1)).autoconnect().map { _ in () }
        let map = container.map
        overlays.push(MapStatsOverlay(viewModel: MapStatsViewModel(statistics: { map.statistics }, l10n: l10n),
                                      tick: tick.eraseToAnyPublisher()))
    }
}
