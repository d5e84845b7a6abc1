"""`ascend-migrate migrate SRC -o DST`: a migrated copy of a whole project, with the Ascend tool's analysis files.

SRC is only read. DST receives the project's files (excludes and .gitignore honoured), each Python file fixed
as `fix --write` would fix it, and `transplant_result_file/` with the analysis (the CSVs of `scan --format
csv`, change_list.csv, unknown_api.csv, the log msFmkTranspltlog.txt, summary.json). While it runs DST holds
`.ascend-migrate-incomplete`; a DST that still has it after the command ended is an interrupted run.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ascend_migrate.commands.common import add_settings_arguments, print_error, settings_from_arguments, termination_as_interrupt

EXIT_CLEAN, EXIT_PROBLEMS, EXIT_USAGE = 0, 1, 2


def register(subparsers) -> None:
    parser = subparsers.add_parser(
        "migrate",
        help="write a migrated copy of a project, with the Ascend tool's analysis files",
        description="Copy the project SRC to DST, apply the fixes to the copy (SRC is never written), and write the "
        "analysis into DST/transplant_result_file/. Exit 0 when every file was migrated, 1 when some file could not "
        "be (copied unchanged, listed), 2 on a usage error (nothing written).",
    )
    parser.add_argument("source", type=Path, metavar="SRC", help="the project directory")
    parser.add_argument("--output", "-o", type=Path, required=True, metavar="DST", help="the directory for the migrated copy")
    parser.add_argument("--unsafe", action="store_true", help="also apply fixes that may change behaviour")
    parser.add_argument("--force", action="store_true", help="write into a DST that is not empty (same-named files are replaced)")
    parser.add_argument("--auto", action="store_true",
                        help="npu: insert torch_npu's automatic migration (transfer_to_npu) at each entry point and fix only what it cannot do")
    parser.add_argument("--main", type=Path, metavar="FILE", help="the entry point (--auto: instead of detecting them; --distributed: the training script)")
    parser.add_argument("--distributed", action="store_true",
                        help="npu: make the single-card training script --main multi-card (hccl, DistributedSampler, DDP, rank 0 logs) "
                        "and write run_distributed_npu.sh")
    parser.add_argument("--model", metavar="VAR", help="--distributed: the model's variable in --main (model, self.model)")
    parser.add_argument("--third-party-api", type=Path, metavar="CSV",
                        help="a framework_unsupported_op.csv (the Ascend tool's layout): report the project's uses of the APIs it lists")
    add_settings_arguments(parser)
    parser.set_defaults(run=run)


def run(arguments: argparse.Namespace) -> int:
    from ascend_migrate.config import ConfigError
    from ascend_migrate.kb.errors import KnowledgeBaseError
    from ascend_migrate.projects.analysis_files import summary_text
    from ascend_migrate.projects.migration import MigrationError, MigrationRequest, migrate
    from ascend_migrate.projects.tree import MARKER

    if not arguments.source.is_dir():
        print_error(f"{arguments.source}: not a directory (migrate copies a project directory)")
        return EXIT_USAGE
    try:
        settings = settings_from_arguments(arguments, [arguments.source])
    except ConfigError as error:
        print_error(str(error))
        return EXIT_USAGE
    request = MigrationRequest(
        source=arguments.source, destination=arguments.output, settings=settings, unsafe=arguments.unsafe,
        force=arguments.force, auto=arguments.auto, main=arguments.main, model=arguments.model,
        distributed=arguments.distributed, third_party_list=arguments.third_party_api,
    )
    try:
        with termination_as_interrupt():  # SIGTERM too: the temporary file of the file being written is removed
            summary = migrate(request)
    except MigrationError as error:
        print_error(str(error))
        return EXIT_USAGE
    except KnowledgeBaseError as error:
        print_error(f"the knowledge base is broken: {error}")
        return EXIT_USAGE
    except KeyboardInterrupt:
        print(f"ascend-migrate: interrupted: {arguments.output} is incomplete (it holds {MARKER})", file=sys.stderr)
        return 130
    except OSError as error:
        print_error(f"cannot write {getattr(error, 'filename', None) or arguments.output}: {error.strerror or error}; "
                    f"{arguments.output} is incomplete (it holds {MARKER})")
        return EXIT_USAGE
    sys.stderr.write(summary_text(summary))
    return EXIT_PROBLEMS if summary.errors else EXIT_CLEAN
