import NimbusDomain
import NimbusPresentation
import NimbusUI

extension TabNavigator {
    /// Pushes the city detail `make` builds on tab `index`, and does what it asks there: its back
    /// route pops it, and the full text of its warnings goes on `overlays` over it. (Every tab that
    /// opens a city — Cities, Today, Liked — opens it this way, through its own coordinator.)
    func pushCityDetail(onTab index: Int, overlays: OverlayPresenting, make: (@escaping (CityDetailRoute) -> Void) -> Screen) {
        let detail = make { [weak self, weak overlays] route in
            switch route {
            case .back: self?.pop(onTab: index)
            case .showWarnings(let shown, let l10n):
                overlays?.present(WarningsOverlay(viewModel: WarningsViewModel(shown: shown, l10n: l10n)))
            }
        }
        push(detail, onTab: index)
    }
}
