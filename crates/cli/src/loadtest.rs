pub fn run(_: Args) -> anyhow::Result<()> {
    Ok(())
}
#[derive(clap::Args)]
pub struct Args {}
