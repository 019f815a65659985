//! The schema migrations, embedded in the binary so `cannonade serve` needs no files. Every
//! file of `migrations/` is one (`NNNN_description.sql`), applied in order; the checksums of
//! files applied before this list was generated are the same, so existing databases stay
//! valid.

use sqlx::migrate::Migrator;

/// The migrator over the embedded migrations.
pub(crate) static MIGRATOR: Migrator = sqlx::migrate!("./migrations");

#[cfg(test)]
mod tests {
    use super::MIGRATOR;
    use sqlx::Row;
    use sqlx::migrate::Migrator;

    /// An in-memory database with the migrations up to `version` applied: one made by an
    /// older server.
    async fn migrated_to(version: i64) -> sqlx::AnyPool {
        sqlx::any::install_default_drivers();
        let pool = sqlx::any::AnyPoolOptions::new()
            .max_connections(1)
            .connect("sqlite::memory:")
            .await
            .unwrap();
        let before = Migrator {
            migrations: MIGRATOR
                .migrations
                .iter()
                .filter(|m| m.version <= version)
                .cloned()
                .collect(),
            ..Migrator::DEFAULT
        };
        before.run(&pool).await.unwrap();
        pool
    }

    /// A database made before names were keyed by case, holding two accounts that differ
    /// only in case, takes the new migrations: the older keeps its name for every case, the
    /// younger its exact name.
    #[tokio::test]
    async fn a_database_with_case_twins_migrates() {
        let pool = migrated_to(5).await;
        for (id, name, at) in [("u1", "Bob", 1i64), ("u2", "bob", 2)] {
            sqlx::query(
                "INSERT INTO users (id, name, password_hash, created_ms) VALUES ($1, $2, NULL, $3)",
            )
            .bind(id)
            .bind(name)
            .bind(at)
            .execute(&pool)
            .await
            .unwrap();
        }
        MIGRATOR.run(&pool).await.unwrap();
        let keys: Vec<(String, Option<String>)> =
            sqlx::query("SELECT id, name_key FROM users ORDER BY id")
                .fetch_all(&pool)
                .await
                .unwrap()
                .iter()
                .map(|r| (r.get("id"), r.get("name_key")))
                .collect();
        assert_eq!(keys, [("u1".into(), Some("bob".into())), ("u2".into(), None)]);
    }

    /// Ratings kept per game before speeds existed become the game's `blitz` ratings, with
    /// everything they held.
    #[tokio::test]
    async fn ratings_per_game_become_blitz_ratings() {
        let pool = migrated_to(6).await;
        sqlx::query(
            "INSERT INTO users (id, name, password_hash, created_ms) VALUES ('u1', 'ann', NULL, 1)",
        )
        .execute(&pool)
        .await
        .unwrap();
        sqlx::query(
            "INSERT INTO ratings (user_id, kind, rating, rd, volatility, games) \
             VALUES ('u1', 'xiangqi', 1612.5, 80.0, 0.061, 7)",
        )
        .execute(&pool)
        .await
        .unwrap();
        MIGRATOR.run(&pool).await.unwrap();
        let row = sqlx::query("SELECT * FROM speed_ratings").fetch_one(&pool).await.unwrap();
        let text = |c: &str| row.get::<String, _>(c);
        assert_eq!(
            (text("user_id"), text("kind"), text("speed")),
            ("u1".into(), "xiangqi".into(), "blitz".into())
        );
        assert_eq!((row.get::<f64, _>("rating"), row.get::<f64, _>("rd")), (1612.5, 80.0));
        assert_eq!((row.get::<f64, _>("volatility"), row.get::<i64, _>("games")), (0.061, 7));
    }

    /// The embedded list is every file of `migrations/`, in order, none missing.
    #[test]
    fn every_migration_file_is_embedded() {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("migrations");
        let files = std::fs::read_dir(dir).unwrap().count();
        let versions: Vec<i64> = MIGRATOR.migrations.iter().map(|m| m.version).collect();
        assert_eq!(versions, (1..=files as i64).collect::<Vec<_>>());
    }
}
