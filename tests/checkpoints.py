"""Forging a stored shard of a sharded run, as an editor would: the sums changed and the file's
checksum made again, so that only the checks of what the sums mean can catch it."""
import json

from enumerate.core.slices import shard_digest


def forge_shard(folder, index, change):
    """Apply ``change(sums)`` to shard ``index`` of the checkpoint ``folder`` and re-sign it."""
    shard = folder / f"shard-{index:07d}.json"
    data = json.loads(shard.read_text())
    key = json.loads((folder / "run.json").read_text())
    change(data["sums"])
    data["sha256"] = shard_digest(key, index, data["sums"])
    shard.write_text(json.dumps(data))
