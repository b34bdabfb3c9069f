/// A GitHub user's profile, as `GET /users/{login}` returns it (the fields the app shows).
public struct GitHubUser: Codable, Sendable, Equatable {
    public var login: String
    public var id: Int
    public var name: String?
    public var company: String?
    public var location: String?
    public var bio: String?
    public var followers: Int
    public var following: Int
    public var publicRepos: Int
    public var avatarURL: String

    enum CodingKeys: String, CodingKey {
        case login, id, name, company, location, bio, followers, following
        case publicRepos = "public_repos"
        case avatarURL = "avatar_url"
    }
}
