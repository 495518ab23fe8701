import Foundation
import OpenCombineShim

/// Why a like could not be saved or read.
public enum LikesError: Error, Equatable, Sendable {
    /// The database refused the write or read (disk full, read-only, locked); the detail is for logs.
    case storage(String)
}

/// The cities the user liked, kept on disk.
public protocol LikesRepository: AnyObject, Sendable {
    /// Liked city ids, most recently liked first.
    func likedCityIDs() throws -> [Int]
    func isLiked(_ cityID: Int) throws -> Bool
    /// Likes or unlikes `cityID`, in one transaction.
    func setLiked(_ cityID: Int, _ liked: Bool) throws
    /// The liked ids, newest first: what is saved now when subscribed, then again after every change.
    /// Every screen that shows likes derives them from this, so what is shown is what is saved.
    var contents: AnyPublisher<[Int], Never> { get }
}

/// Likes and unlikes cities.
public struct LikeCityUseCase: Sendable {
    private let repository: LikesRepository
    public init(repository: LikesRepository) { self.repository = repository }

    public func isLiked(_ cityID: Int) -> Result<Bool, LikesError> {
        Result { try repository.isLiked(cityID) }.mapError(Self.typed)
    }

    /// Flips the like of `city`; returns the new state.
    public func toggle(_ cityID: Int) -> Result<Bool, LikesError> {
        Result {
            let liked = try !repository.isLiked(cityID)
            try repository.setLiked(cityID, liked)
            return liked
        }.mapError(Self.typed)
    }

    public func unlike(_ cityID: Int) -> Result<Void, LikesError> {
        Result { try repository.setLiked(cityID, false) }.mapError(Self.typed)
    }

    /// What is saved now, then after every change (see `LikesRepository.contents`).
    public var contents: AnyPublisher<[Int], Never> { repository.contents }

    static func typed(_ error: Error) -> LikesError {
        (error as? LikesError) ?? .storage(String(describing: error))
    }
}

/// The liked cities themselves, newest first; likes of cities the loaded catalogue lacks are kept
/// on disk and skipped here.
public struct GetLikedCitiesUseCase: Sendable {
    private let likes: LikesRepository
    private let lookup: @Sendable (Int) -> City?

    public init(likes: LikesRepository, lookup: @escaping @Sendable (Int) -> City?) {
        self.likes = likes
        self.lookup = lookup
    }

    public func execute() -> Result<[City], LikesError> {
        Result { try likes.likedCityIDs() }.mapError(LikeCityUseCase.typed).map { ids in ids.compactMap(lookup) }
    }

    /// The liked cities as saved now, then after every change.
    public var contents: AnyPublisher<[City], Never> {
        let lookup = self.lookup
        return likes.contents.map { ids in ids.compactMap(lookup) }.eraseToAnyPublisher()
    }
}

/// My places: where I am (found once, offline, when first asked) and the liked cities as they change.
public struct MyPlacesUseCase: Sendable {
    private let locate: LocateCurrentCityUseCase
    private let liked: GetLikedCitiesUseCase

    public init(locate: LocateCurrentCityUseCase, liked: GetLikedCitiesUseCase) {
        self.locate = locate
        self.liked = liked
    }

    /// Where I am first (when known), then the liked cities; again after every change of the likes.
    public var contents: AnyPublisher<[City], Never> {
        let locate = self.locate, liked = self.liked
        return Deferred { () -> AnyPublisher<[City], Never> in
            let here: [City]
            if case .success(let current) = locate.execute() { here = [current.city] } else { here = [] }
            return liked.contents.map { here + $0 }.eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }

    /// Their coordinates.
    public var coordinates: AnyPublisher<[Coordinate], Never> {
        contents.map { $0.map(\.coordinate) }.eraseToAnyPublisher()
    }
}
