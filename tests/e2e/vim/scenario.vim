" Drive the ascend-migrate server from Vim with ALE (Debian's vim-ale), set up with
" docs/editors/vim/ascend-migrate-ale.vim: wait for the diagnostics, ask for the code actions on one line
" through ALE's code-action API (the one its menus use), apply the chosen one, save.
" Input: the JSON file named by $ASCEND_MIGRATE_SCENARIO; output: a JSON report at its "report" path.
set nocompatible
let s:scenario = json_decode(join(readfile($ASCEND_MIGRATE_SCENARIO), "\n"))
let s:report = {'diagnostics': [], 'actions': [], 'steps': []}
let s:deadline = reltimefloat(reltime()) + s:scenario.timeout_ms / 1000.0

function! s:WriteReport() abort
    call writefile([json_encode(s:report)], s:scenario.report)
endfunction

function! s:Fail(message) abort
    let s:report.error = a:message
    call s:WriteReport()
    cquit 2
endfunction

function! s:WaitUntil(condition, what) abort
    while !eval(a:condition)
        if reltimefloat(reltime()) > s:deadline
            call s:Fail(a:what . ' did not happen in time')
        endif
        sleep 50m
    endwhile
endfunction

packadd ale
let g:ale_linters = {'python': ['ascend_migrate']}
let g:ale_lint_on_enter = 1
let g:ale_lint_on_text_changed = 'never'
let g:ale_echo_cursor = 0
let g:ale_set_loclist = 0
let g:ascend_migrate_command = s:scenario.console_script
execute 'source' fnameescape(s:scenario.setup)

execute 'edit' fnameescape(s:scenario.file)
set filetype=python
ALELint
call s:WaitUntil('!empty(ale#engine#GetLoclist(bufnr("")))', 'the first diagnostics')
" The first publish may come while the server still works through the file: wait for a quiet moment.
let s:count = -1
let s:since = reltimefloat(reltime())
while reltimefloat(reltime()) - s:since < 0.5
    let s:now = len(ale#engine#GetLoclist(bufnr('')))
    if s:now != s:count
        let s:count = s:now
        let s:since = reltimefloat(reltime())
    endif
    sleep 50m
endwhile
for s:item in ale#engine#GetLoclist(bufnr(''))
    call add(s:report.diagnostics, {'line': s:item.lnum, 'column': s:item.col, 'code': get(s:item, 'code', ''),
    \   'message': s:item.text})
endfor
call add(s:report.steps, 'diagnostics received')

let s:chosen = v:null
let s:answered = 0
function! s:OnActions(data, items) abort
    let s:answered = 1
    for [l:kind, l:action] in a:items
        call add(s:report.actions, l:action.title)
        if s:chosen is v:null && stridx(l:action.title, s:scenario.action_contains) >= 0
            let s:chosen = [a:data, l:action]
        endif
    endfor
endfunction

call cursor(s:scenario.fix_line, s:scenario.fix_column)
call ale#codefix#Execute(0, function('s:OnActions'))
call s:WaitUntil('s:answered', 'the code-action answer')
if s:chosen is v:null
    call s:Fail('no code action titled like ' . s:scenario.action_contains . ' on line ' . s:scenario.fix_line)
endif
let s:report.applied = s:chosen[1].title
call ale#codefix#ApplyLSPCodeAction(s:chosen[0], s:chosen[1])
call add(s:report.steps, 'code action applied')
write
call add(s:report.steps, 'file written')
call s:WriteReport()
ALEStopAllLSPs
qall!
