//! The schema migrations, embedded in the binary so `cannonade serve` needs no files.

use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use std::borrow::Cow;
use std::future::Future;
use std::pin::Pin;

/// Every migration, in order: (version, description, SQL).
const MIGRATIONS: &[(i64, &str, &str)] = &[
    (1, "init", include_str!("../migrations/0001_init.sql")),
    (2, "user games", include_str!("../migrations/0002_user_games.sql")),
    (3, "game chat", include_str!("../migrations/0003_game_chat.sql")),
    (4, "game proposals", include_str!("../migrations/0004_game_proposals.sql")),
    (5, "store health", include_str!("../migrations/0005_store_health.sql")),
];

/// The embedded migrations as a sqlx source.
#[derive(Debug)]
struct Embedded;

impl MigrationSource<'static> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 'static>> {
        Box::pin(async {
            Ok(MIGRATIONS
                .iter()
                .map(|&(v, d, sql)| {
                    Migration::new(
                        v,
                        Cow::Borrowed(d),
                        MigrationType::Simple,
                        Cow::Borrowed(sql),
                        false,
                    )
                })
                .collect())
        })
    }
}

/// The migrator over the embedded migrations.
pub(crate) async fn migrator() -> Result<Migrator, sqlx::migrate::MigrateError> {
    Migrator::new(Embedded).await
}
