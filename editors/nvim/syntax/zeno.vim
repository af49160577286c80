" Vim syntax file for zeno timed-automata models (.zeno).
" Every keyword of the language appears in one `syntax keyword` line (or the
" zenoTemporal match); a test compares them with the lexer's keywords.

if exists('b:current_syntax')
  finish
endif

syntax keyword zenoType int bool clock chan struct scalar
syntax keyword zenoModifier const meta urgent broadcast committed init
syntax keyword zenoDeclaration typedef template location invariant system check priority default
syntax keyword zenoLabel when sync select do
syntax keyword zenoBoolean true false
syntax keyword zenoOperatorWord and or not imply
syntax keyword zenoQuantifier forall exists sum
syntax keyword zenoDeadlock deadlock
syntax keyword zenoStatement if else while for return
syntax keyword zenoType void
syntax match zenoTemporal /\<\(A\[\]\|E<>\|A<>\|E\[\]\)/

" UPPAAL's sized integer types are type names, not keywords.
syntax match zenoBuiltinType /\<\(int8_t\|uint8_t\|int16_t\|uint16_t\|int32_t\)\>/
syntax match zenoNumber /\<[0-9]\+\>/
syntax match zenoArrow /->/
" Leads-to: starts before the arrow inside it, so it wins over zenoArrow.
syntax match zenoLeadsTo /-->/
syntax match zenoOperator /<<=\|>>=\|<<\|>>\|<?\|>?\|<=\|>=\|==\|!=\|&&\|||\|+=\|-=\|\*=\|\/=\|%=\|&=\||=\|\^=/
syntax match zenoCheckName /\(\<check\s\+\)\@<=[A-Za-z_][A-Za-z0-9_]*/
syntax match zenoTemplateName /\(\<template\s\+\)\@<=[A-Za-z_][A-Za-z0-9_]*/
syntax match zenoLocationName /\(\<location\s\+\)\@<=[A-Za-z_][A-Za-z0-9_]*/

syntax match zenoTodo /\<\(TODO\|FIXME\|XXX\)\>/ contained
syntax match zenoLineComment "//.*$" contains=zenoTodo
syntax region zenoBlockComment start="/\*" end="\*/" contains=zenoTodo

highlight default link zenoType Type
highlight default link zenoModifier StorageClass
highlight default link zenoDeclaration Keyword
highlight default link zenoLabel Statement
highlight default link zenoBoolean Boolean
highlight default link zenoOperatorWord Operator
highlight default link zenoQuantifier Repeat
highlight default link zenoDeadlock Constant
highlight default link zenoStatement Statement
highlight default link zenoTemporal Special
highlight default link zenoLeadsTo Special
highlight default link zenoBuiltinType Type
highlight default link zenoNumber Number
highlight default link zenoArrow Operator
highlight default link zenoOperator Operator
highlight default link zenoCheckName Function
highlight default link zenoTemplateName Structure
highlight default link zenoLocationName Label
highlight default link zenoTodo Todo
highlight default link zenoLineComment Comment
highlight default link zenoBlockComment Comment

let b:current_syntax = 'zeno'
