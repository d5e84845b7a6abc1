" ascend-migrate in Vim (or Neovim) through ALE (Debian's vim-ale 3.3 or later).
" Use as is: copy to ~/.vim/plugin/ascend-migrate-ale.vim (after ALE is installed).
" Needs `python3 -m pip install ascend-migrate`; g:ascend_migrate_command names its console script.
" :ALECodeAction on a flagged line offers the fixes; the diagnostics appear like any ALE linter's.
" If you restrict ALE's Python linters with g:ale_linters, add 'ascend_migrate' to the list.

" The console script of the install, for example a project's .venv/bin/ascend-migrate. Not
" `python -m ascend_migrate`: with the project as working directory, Python would import a project file
" named ascend_migrate.py before any of our code runs.
let g:ascend_migrate_command = get(g:, 'ascend_migrate_command', 'ascend-migrate')
" The `ascendMigrate` settings (every key is in docs/editors/README.md). A project's
" [tool.ascend-migrate] in pyproject.toml wins over them unless configurationPreference is "editorFirst".
let g:ascend_migrate_settings = get(g:, 'ascend_migrate_settings',
\   {'target': 'npu', 'torchVersion': '2.8', 'mindsporeVersion': '2.10'})

function! s:ProjectRoot(buffer) abort
    let l:marker = ale#path#FindNearestFile(a:buffer, 'pyproject.toml')
    if empty(l:marker)
        let l:marker = ale#path#FindNearestFile(a:buffer, 'setup.py')
    endif
    return empty(l:marker) ? expand('#' . a:buffer . ':p:h') : fnamemodify(l:marker, ':h')
endfunction

call ale#linter#Define('python', {
\   'name': 'ascend_migrate',
\   'lsp': 'stdio',
\   'executable': {buffer -> g:ascend_migrate_command},
\   'command': '%e serve',
\   'project_root': function('s:ProjectRoot'),
\   'initialization_options': {buffer -> {'ascendMigrate': g:ascend_migrate_settings}},
\   'lsp_config': {buffer -> {'ascendMigrate': g:ascend_migrate_settings}},
\})
