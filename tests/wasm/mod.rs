//! A scripted in-memory host for the wasm shell tests: a real JS function
//! (a wasm-bindgen Closure) that answers like a JSON-RPC transport.
#![allow(dead_code)]

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Object, Promise, Reflect};
use serde_json::Value;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::{future_to_promise, JsFuture};

pub enum Reply {
    Ok(Value),
    Err(i64, &'static str),
    Never,
    Throw,
    Undefined,
    Later(u32, Value),
}

#[derive(Clone)]
pub struct Host {
    pub calls: Rc<RefCell<Vec<(String, Value, JsValue)>>>,
    pub function: Function,
}

pub fn js(value: &Value) -> JsValue {
    value.serialize(&serde_wasm_bindgen::Serializer::json_compatible()).unwrap()
}

use serde::Serialize;

pub fn host(script: impl Fn(&str, &Value) -> Reply + 'static) -> Host {
    let calls: Rc<RefCell<Vec<(String, Value, JsValue)>>> = Rc::default();
    let log = calls.clone();
    let closure = Closure::<dyn FnMut(JsValue, JsValue, JsValue) -> Result<JsValue, JsValue>>::new(
        move |method: JsValue, params: JsValue, options: JsValue| {
            let method = method.as_string().unwrap();
            let params: Value = serde_wasm_bindgen::from_value(params).unwrap();
            log.borrow_mut().push((method.clone(), params.clone(), options));
            Ok(match script(&method, &params) {
                Reply::Ok(v) => Promise::resolve(&js(&v)).into(),
                Reply::Err(code, message) => {
                    let e = Object::new();
                    Reflect::set(&e, &"code".into(), &JsValue::from_f64(code as f64)).unwrap();
                    Reflect::set(&e, &"message".into(), &message.into()).unwrap();
                    Promise::reject(&e).into()
                }
                Reply::Never => Promise::new(&mut |_, _| {}).into(),
                Reply::Throw => return Err(js_sys::Error::new("socket closed").into()),
                Reply::Undefined => Promise::resolve(&JsValue::UNDEFINED).into(),
                Reply::Later(ms, v) => future_to_promise(async move {
                    gloo_timers::future::TimeoutFuture::new(ms).await;
                    Ok(js(&v))
                })
                .into(),
            })
        },
    );
    let function: Function = closure.into_js_value().unchecked_into();
    Host { calls, function }
}

impl Host {
    pub fn methods(&self) -> Vec<String> {
        self.calls.borrow().iter().map(|c| c.0.clone()).collect()
    }
}

pub fn object(pairs: &[(&str, JsValue)]) -> JsValue {
    let o = Object::new();
    for (k, v) in pairs {
        Reflect::set(&o, &JsValue::from_str(k), v).unwrap();
    }
    o.into()
}

pub fn get(object: &JsValue, key: &str) -> JsValue {
    Reflect::get(object, &JsValue::from_str(key)).unwrap()
}

pub fn to_value(v: JsValue) -> Value {
    serde_wasm_bindgen::from_value(v).unwrap()
}

pub async fn settle(p: Promise) -> Result<JsValue, JsValue> {
    JsFuture::from(p).await
}

/// A recorder function: returns (function, calls).
pub fn recorder() -> (Function, Rc<RefCell<Vec<Vec<JsValue>>>>) {
    let calls: Rc<RefCell<Vec<Vec<JsValue>>>> = Rc::default();
    let log = calls.clone();
    let f = Closure::<dyn FnMut(JsValue, JsValue)>::new(move |a: JsValue, b: JsValue| {
        log.borrow_mut().push(vec![a, b]);
    });
    (f.into_js_value().unchecked_into(), calls)
}

pub fn now() -> f64 {
    js_sys::Date::now()
}
