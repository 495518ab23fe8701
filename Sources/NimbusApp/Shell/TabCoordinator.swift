import NimbusPresentation
import NimbusUI

/// What every tab's coordinator does, written once: it adds its tab, whose root screen is made when
/// the tab is first shown and reports its routes here, and keeps the root while it lives. Each tab's
/// coordinator says what its root is (`start`) and what each of its routes opens (`open`).
@MainActor
class TabCoordinator<Route> {
    let navigator: TabNavigator
    let overlays: OverlayPresenting
    /// The tab's index, once started.
    private(set) var tab = 0
    /// The tab's root while it exists (the coordinator hands it what another view model answered).
    private(set) weak var root: Screen?

    init(navigator: TabNavigator, overlays: OverlayPresenting) {
        self.navigator = navigator
        self.overlays = overlays
    }

    /// Adds the tab: `makeRoot` makes its root when it is first shown, given where to report routes;
    /// `source` is what the status bar says while the tab is active.
    func start(title: L10nKey, source: @escaping () -> String? = { nil },
               root makeRoot: @escaping (_ onRoute: @escaping (Route) -> Void) -> Screen) {
        tab = navigator.addTab(title: title, source: source) { [weak self] in
            let root = makeRoot { route in self?.open(route) }
            self?.root = root
            return root
        }
    }

    /// What a route of the tab's screens opens; each tab's coordinator says.
    func open(_ route: Route) {}
}
