//! The store's contract, on embedded SQLite always and on PostgreSQL when
//! `CANNONADE_TEST_POSTGRES` names a database (CI: `postgres://postgres@127.0.0.1:5432/test`).

use cannonade_store::{
    ChatRow, EventRow, Finish, GameRow, NewPlayer, ProposalRow, RatingRow, ReviewRow, SqlStore,
    Store, User,
};

fn game(id: &str) -> GameRow {
    GameRow {
        id: id.into(),
        kind: "xiangqi".into(),
        options: "repetition=seed".into(),
        start_fen: "start".into(),
        initial_ms: 300_000,
        increment_ms: 2_000,
        rated: true,
        users: [Some(format!("{id}-u1")), None],
        names: ["alice".into(), "AI level 3".into()],
        ai: [None, Some(3)],
        seed: None,
        commitment: None,
        status: "live".into(),
        result: None,
        crowd: None,
        export: None,
        created_ms: 1,
        ended_ms: None,
        days_per_move: 0,
    }
}

async fn contract(store: &dyn Store, prefix: &str) {
    let user = User {
        id: format!("{prefix}-u1"),
        name: format!("{prefix}alice"),
        password_hash: Some("h".into()),
        created_ms: 5,
    };
    store.create_user(&user).await.unwrap();
    assert!(store.create_user(&user).await.is_err(), "names and ids are unique");
    store.create_session(&format!("{prefix}tok"), &user.id).await.unwrap();
    assert_eq!(store.session_user(&format!("{prefix}tok")).await.unwrap(), Some(user.clone()));
    assert_eq!(store.user_by_name(&user.name).await.unwrap(), Some(user.clone()));
    assert_eq!(store.session_user("nope").await.unwrap(), None);
    names_are_unique_regardless_of_case(store, &user).await;
    sessions_are_listed_touched_and_ended(store, prefix, &user).await;

    let g = game(prefix);
    store.create_game(&g, &[]).await.unwrap();
    assert_eq!(store.game(prefix).await.unwrap(), Some(g.clone()));
    assert!(store.live_games().await.unwrap().iter().any(|x| x.id == prefix));

    first_seat_and_game_are_one_transaction(store, prefix).await;

    // A user's games: either seat, newest first, limited.
    let later = GameRow {
        id: format!("{prefix}-2"),
        users: [None, Some(format!("{prefix}-u1"))],
        created_ms: 7,
        ..game(prefix)
    };
    store.create_game(&later, &[]).await.unwrap();
    let mine = store.user_games(&format!("{prefix}-u1"), 10).await.unwrap();
    let ids: Vec<&str> = mine.iter().map(|g| g.id.as_str()).collect();
    assert_eq!(ids, [later.id.as_str(), prefix]);
    assert_eq!(store.user_games(&format!("{prefix}-u1"), 1).await.unwrap().len(), 1);
    assert!(store.user_games("nobody", 10).await.unwrap().is_empty());

    let ev = |v: i64| EventRow { game_id: prefix.into(), v, body: format!("{{\"n\":{v}}}") };
    store.append(&[ev(1), ev(2)], &[]).await.unwrap();
    // A batch with a duplicate version fails whole: nothing of it is kept.
    assert!(store.append(&[ev(3), ev(2)], &[]).await.is_err());
    let events = store.events(prefix).await.unwrap();
    assert_eq!(events, vec![ev(1), ev(2)]);
    // A group commit larger than one statement's worth of rows is still one transaction:
    // whole when it succeeds, nothing of it when its last row fails.
    let many: Vec<EventRow> = (3..=1000).map(ev).collect();
    let mut bad = many.clone();
    bad.push(ev(2));
    assert!(store.append(&bad, &[]).await.is_err());
    assert_eq!(store.events(prefix).await.unwrap().len(), 2);
    store.append(&many, &[]).await.unwrap();
    let events = store.events(prefix).await.unwrap();
    assert_eq!(events, [vec![ev(1), ev(2)], many].concat());
    events_and_their_new_players_are_one_transaction(store, prefix, ev(1001)).await;

    // Chat: the last lines, oldest first; a line number is taken once.
    let line =
        |n: i64| ChatRow { game_id: prefix.into(), n, body: format!("{{\"text\":\"{n}\"}}") };
    assert!(store.chat(prefix, 50).await.unwrap().is_empty());
    for n in 1..=5 {
        store.add_chat(&line(n)).await.unwrap();
    }
    assert!(store.add_chat(&line(5)).await.is_err());
    assert_eq!(store.chat(prefix, 3).await.unwrap(), vec![line(3), line(4), line(5)]);
    assert_eq!(store.chat(prefix, 50).await.unwrap().len(), 5);

    // Proposals: one per spectator and game, the latest counts (within one batch too);
    // rows of another ply are not the open ply's.
    let proposal = |user: &str, ply: i64, mv: &str| ProposalRow {
        game_id: prefix.into(),
        user_id: format!("{prefix}-{user}"),
        ply,
        mv: mv.into(),
    };
    assert!(store.proposals(prefix, 0).await.unwrap().is_empty());
    store.propose(&[proposal("ann", 0, "h2e2"), proposal("bob", 0, "b2e2")]).await.unwrap();
    store.propose(&[proposal("ann", 0, "c3c4"), proposal("ann", 0, "b2e2")]).await.unwrap();
    assert_eq!(
        store.proposals(prefix, 0).await.unwrap(),
        vec![proposal("ann", 0, "b2e2"), proposal("bob", 0, "b2e2")]
    );
    store.propose(&[proposal("bob", 1, "h9g7")]).await.unwrap();
    assert_eq!(store.proposals(prefix, 0).await.unwrap(), vec![proposal("ann", 0, "b2e2")]);
    assert_eq!(store.proposals(prefix, 1).await.unwrap(), vec![proposal("bob", 1, "h9g7")]);
    store.clear_proposals(prefix).await.unwrap();
    assert!(store.proposals(prefix, 0).await.unwrap().is_empty());
    assert!(store.proposals(prefix, 1).await.unwrap().is_empty());

    let rating = RatingRow {
        user_id: user.id.clone(),
        kind: "xiangqi".into(),
        speed: "blitz".into(),
        rating: 1612.5,
        rd: 80.0,
        volatility: 0.06,
        games: 1,
    };
    let finish = Finish {
        game_id: prefix.into(),
        result: "{}".into(),
        crowd: "{}".into(),
        export: "record".into(),
        ended_ms: 9,
        ratings: vec![rating.clone()],
    };
    store.finish(&finish).await.unwrap();
    store.finish(&finish).await.unwrap();
    assert_eq!(store.rating(&user.id, "xiangqi", "blitz").await.unwrap(), Some(rating.clone()));
    assert_eq!(store.rating(&user.id, "xiangqi", "rapid").await.unwrap(), None);
    assert_eq!(store.user_ratings(&user.id).await.unwrap(), vec![rating.clone()]);
    let board = store.leaderboard("xiangqi", "blitz", 110.0, 50).await.unwrap();
    assert!(board.iter().any(|r| r.rating == rating && r.name == user.name));
    assert!(
        store
            .leaderboard("xiangqi", "blitz", 79.0, 50)
            .await
            .unwrap()
            .iter()
            .all(|r| r.rating != rating)
    );
    let over = store.game(prefix).await.unwrap().unwrap();
    assert_eq!((over.status.as_str(), over.export.as_deref()), ("over", Some("record")));
    assert!(!store.live_games().await.unwrap().iter().any(|x| x.id == prefix));
    reviews_are_written_once(store, prefix).await;
    unreviewed_games_are_the_recent_finished_ones(store, prefix).await;
}

/// The games a restarted node reviews again: finished since the time asked, played here
/// (an import ends as it is made), without a review, newest first, at most the limit.
async fn unreviewed_games_are_the_recent_finished_ones(store: &dyn Store, prefix: &str) {
    const SINCE: i64 = 1_000_000;
    let games = [
        ("old", 10, Some(SINCE - 1)),
        ("a", 10, Some(SINCE + 100)),
        ("b", 10, Some(SINCE + 200)),
        ("import", SINCE + 300, Some(SINCE + 300)),
        ("reviewed", 10, Some(SINCE + 50)),
        ("live", 10, None),
    ];
    for (name, created_ms, ended_ms) in games {
        let id = format!("{prefix}-r-{name}");
        store
            .create_game(&GameRow { id: id.clone(), created_ms, ..game(prefix) }, &[])
            .await
            .unwrap();
        if let Some(ended_ms) = ended_ms {
            let finish = Finish {
                game_id: id,
                result: "{}".into(),
                crowd: "{}".into(),
                export: "record".into(),
                ended_ms,
                ratings: Vec::new(),
            };
            store.finish(&finish).await.unwrap();
        }
    }
    let review = ReviewRow {
        game_id: format!("{prefix}-r-reviewed"),
        depth: 8,
        body: "{}".into(),
        created_ms: SINCE + 60,
    };
    assert!(store.put_review(&review).await.unwrap());
    let ids = |n: &[&str]| n.iter().map(|n| format!("{prefix}-r-{n}")).collect::<Vec<_>>();
    assert_eq!(store.unreviewed_games(SINCE, 10).await.unwrap(), ids(&["b", "a"]));
    assert_eq!(store.unreviewed_games(SINCE, 1).await.unwrap(), ids(&["b"]));
}

/// A game's review is stored once: a second one is refused and the first stays.
async fn reviews_are_written_once(store: &dyn Store, prefix: &str) {
    assert_eq!(store.review(prefix).await.unwrap(), None);
    let first = ReviewRow {
        game_id: prefix.into(),
        depth: 8,
        body: "{\"plies\":[]}".into(),
        created_ms: 9,
    };
    assert!(store.put_review(&first).await.unwrap());
    let second = ReviewRow { depth: 2, body: "{}".into(), ..first.clone() };
    assert!(!store.put_review(&second).await.unwrap());
    assert_eq!(store.review(prefix).await.unwrap(), Some(first));
}

/// An anonymous user `id` named `name`, with a session token hash made from the id.
fn anonymous(id: &str, name: &str) -> NewPlayer {
    NewPlayer {
        user: User { id: id.into(), name: name.into(), password_hash: None, created_ms: 6 },
        token_hash: format!("tok-{id}"),
    }
}

/// A first-time player is written with the game they sit in, or not at all: when the game's
/// row fails (here its id is taken by the game `prefix`), neither the user nor the session
/// is left behind.
async fn first_seat_and_game_are_one_transaction(store: &dyn Store, prefix: &str) {
    let player = anonymous(&format!("{prefix}-n1"), &format!("{prefix}anon"));
    let mut taken = game(prefix);
    taken.users = [Some(player.user.id.clone()), None];
    assert!(store.create_game(&taken, std::slice::from_ref(&player)).await.is_err());
    assert_eq!(store.user_by_name(&player.user.name).await.unwrap(), None);
    assert_eq!(store.session_user(&player.token_hash).await.unwrap(), None);

    let mut fresh = taken.clone();
    fresh.id = format!("{prefix}-g2");
    store.create_game(&fresh, std::slice::from_ref(&player)).await.unwrap();
    assert_eq!(store.session_user(&player.token_hash).await.unwrap(), Some(player.user.clone()));
    assert_eq!(store.game(&fresh.id).await.unwrap(), Some(fresh));
}

/// New players ride along with events (more than one statement's worth here), or are not
/// written at all: when an event fails, none of them is left behind.
async fn events_and_their_new_players_are_one_transaction(
    store: &dyn Store,
    prefix: &str,
    event: EventRow,
) {
    let players: Vec<NewPlayer> = (0..450)
        .map(|i| anonymous(&format!("{prefix}-s{i}"), &format!("{prefix}-spectator-{i}")))
        .collect();
    let mut duplicate = event.clone();
    duplicate.v = 1;
    assert!(store.append(&[event.clone(), duplicate], &players).await.is_err());
    assert_eq!(store.session_user(&players[0].token_hash).await.unwrap(), None);
    store.append(std::slice::from_ref(&event), &players).await.unwrap();
    for p in [&players[0], &players[449]] {
        assert_eq!(store.session_user(&p.token_hash).await.unwrap(), Some(p.user.clone()));
    }
    assert_eq!(store.events(prefix).await.unwrap().last(), Some(&event));
}

#[tokio::test]
async fn sqlite_file_store_keeps_everything_across_reopen() {
    let dir = std::env::temp_dir().join(format!("cannonade-store-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let url = format!("sqlite://{}/t.db", dir.display());
    {
        let store = SqlStore::connect(&url).await.unwrap();
        contract(&store, "a").await;
    }
    // Reopening applies no migration twice and finds the data.
    let store = SqlStore::connect(&url).await.unwrap();
    assert_eq!(store.events("a").await.unwrap().len(), 1001);
    std::fs::remove_dir_all(&dir).ok();
}

#[tokio::test]
async fn sqlite_memory_store() {
    let store = SqlStore::connect("sqlite::memory:").await.unwrap();
    contract(&store, "m").await;
}

#[tokio::test]
async fn postgres_store_when_configured() {
    let Ok(url) = std::env::var("CANNONADE_TEST_POSTGRES") else {
        eprintln!("CANNONADE_TEST_POSTGRES not set: PostgreSQL part skipped");
        return;
    };
    // A database of its own per run: the server outlives the test, and another branch's
    // migrations applied to a shared database would make ours refuse to start.
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos();
    let prefix = format!("pg{}x{nanos}", std::process::id());
    let (scratch, drop_it) = scratch_database(&url, &prefix).await;
    let store = SqlStore::connect(&scratch).await.unwrap();
    contract(&store, &prefix).await;
    drop(store);
    drop_it.await;
}

/// Creates an empty database beside the one `url` names; returns its URL and a future that
/// drops it.
async fn scratch_database(url: &str, name: &str) -> (String, impl Future<Output = ()>) {
    use sqlx::Connection;
    sqlx::any::install_default_drivers();
    let (base, _) = url.rsplit_once('/').expect("a PostgreSQL URL ends in /DATABASE");
    let mut admin = sqlx::AnyConnection::connect(url).await.unwrap();
    sqlx::query(&format!("CREATE DATABASE {name}")).execute(&mut admin).await.unwrap();
    let scratch = format!("{base}/{name}");
    let name = name.to_string();
    let url = url.to_string();
    (scratch, async move {
        let mut admin = sqlx::AnyConnection::connect(&url).await.unwrap();
        let sql = format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)");
        sqlx::query(&sql).execute(&mut admin).await.unwrap();
    })
}

/// Another user whose name differs only in case is refused; a lookup in any case finds the
/// one user.
async fn names_are_unique_regardless_of_case(store: &dyn Store, user: &User) {
    let twin =
        User { id: format!("{}-twin", user.id), name: user.name.to_uppercase(), ..user.clone() };
    assert!(store.create_user(&twin).await.is_err(), "{} after {}", twin.name, user.name);
    assert_eq!(store.user_by_name(&twin.name).await.unwrap(), Some(user.clone()));
}

/// A user's sessions are listed with their last use; a touch moves it; a session is ended
/// only by its own user; expired ones are swept.
async fn sessions_are_listed_touched_and_ended(store: &dyn Store, prefix: &str, user: &User) {
    let (tok, other) = (format!("{prefix}tok"), format!("{prefix}tok2"));
    store.create_session(&other, &user.id).await.unwrap();
    let list = store.user_sessions(&user.id).await.unwrap();
    assert_eq!(list.len(), 2);
    assert!(list.iter().all(|s| s.user_id == user.id && s.last_ms >= s.created_ms));
    store.touch_session(&tok, i64::MAX / 2).await.unwrap();
    let (found, row) = store.session_of(&tok).await.unwrap().unwrap();
    assert_eq!((found, row.last_ms), (user.clone(), i64::MAX / 2));
    assert!(!store.delete_session("someone-else", &other).await.unwrap());
    assert!(store.delete_session(&user.id, &other).await.unwrap());
    assert_eq!(store.session_user(&other).await.unwrap(), None);
    store.create_session(&other, &user.id).await.unwrap();
    // Everything not touched into the far future is older than this.
    assert!(store.delete_sessions_before(i64::MAX / 4).await.unwrap() >= 1);
    assert_eq!(store.session_user(&other).await.unwrap(), None);
    assert_eq!(store.session_user(&tok).await.unwrap(), Some(user.clone()));
}
