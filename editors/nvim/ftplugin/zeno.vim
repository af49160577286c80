if exists('b:did_ftplugin')
  finish
endif
let b:did_ftplugin = 1
setlocal commentstring=//\ %s comments=s1:/*,mb:*,ex:*/,://
setlocal shiftwidth=4 expandtab
let b:undo_ftplugin = 'setlocal commentstring< comments< shiftwidth< expandtab<'
